// The enablement kind: a service's enablements, addressed by feature name, kept on its record
// (ServiceRecord.enablements), so they go with it. Only `aiops` exists; unset means enabled with
// `updated_at: null`. An account without the entitlement gets warnings, not errors.
import type { FastifyInstance } from "fastify";
import type { EmulatorCore } from "../core";
import { invalid } from "../errors";
import { baseUrl, params, reference, rest, who } from "../http";
import { SCOPES } from "../scopes";
import { envelope, object } from "../schemas";
import type { ServiceRecord } from "../store";
import { audit } from "./audit-record/model";
import { defineKind, type KindOptions } from "./kind";
import { findService, serviceRef } from "./service/model";

const FEATURES = ["aiops"] as const;

export const kind = defineKind({
  name: "enablement",
  tables: {},
  routes,
  lag: { never: "a service's enablements are its settings: hidden with the service, whose paths hold them" },
  example: {
    create: (ids) => ({ method: "PUT", path: `/services/${ids.service}/enablements/aiops`, body: { enablement: { enabled: false } } }),
    found: (_made, ids) => ({ get: `/services/${ids.service}/enablements` }),
  },
});

const enablementBody = envelope("enablement", object({ enabled: { type: "boolean" } }, ["enabled"]));

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

async function routes(app: FastifyInstance, { core }: KindOptions): Promise<void> {
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
