// Enablements of a service, addressed by feature name. Only `aiops` exists; unset means
// enabled with `updated_at: null`. An account without the entitlement gets warnings, not errors.
import type { FastifyInstance } from "fastify";
import { audit } from "./audit-record/model";
import type { EmulatorCore } from "../core";
import { invalid } from "../errors";
import { baseUrl, params, reference, rest, who } from "../http";
import { SCOPES } from "../oauth/scopes";
import type { ServiceRecord } from "../store";
import { enablementBody } from "../schemas";
import { findService, serviceRef } from "./service/model";

export const FEATURES = ["aiops"] as const;

function render(core: EmulatorCore, s: ServiceRecord, feature: string) {
  const e = s.enablements[feature];
  const entitled = core.state.accounts[s.accountId]?.aiopsEntitled ?? true;
  return {
    feature,
    enabled: e?.enabled ?? true,
    updated_at: e?.updated_at ?? null,
    ...(entitled ? {} : { warnings: [`The account is not entitled to "${feature}"; the setting is stored but has no effect`] }),
  };
}

export function registerEnablements(app: FastifyInstance, core: EmulatorCore): void {
  rest(app, "GET", "/services/:id/enablements", SCOPES.servicesRead, (req) => {
    const s = findService(core, who(req), params(req).id);
    return { enablements: FEATURES.map((f) => render(core, s, f)) };
  });

  rest(
    app,
    "PUT",
    "/services/:id/enablements/:feature_name",
    SCOPES.servicesWrite,
    (req) => {
      const p = who(req);
      const s = findService(core, p, params(req).id);
      const feature = params(req).feature_name;
      if (!(FEATURES as readonly string[]).includes(feature)) throw invalid(`Feature "${feature}" does not exist (known: ${FEATURES.join(", ")})`);
      const { enabled } = (req.body as { enablement: { enabled: boolean } }).enablement;
      const before = render(core, s, feature).enabled;
      s.enablements[feature] = { enabled: enabled as boolean, updated_at: core.clock.iso() };
      const base = baseUrl(core, req);
      if (before !== enabled) {
        audit(core, p, serviceRef(base, s), "update", reference("enablement", feature, feature, `${base}/services/${s.id}/enablements/${feature}`), [
          { name: "enabled", value: String(enabled), before_value: String(before) },
        ]);
      }
      return { enablement: render(core, s, feature) };
    },
    enablementBody,
  );
}
