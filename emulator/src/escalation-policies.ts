// Escalation policies, read-only: enough for services to reference and clients to look up.
// They are created by seeding or the admin API.
import type { FastifyInstance } from "fastify";
import type { EmulatorCore } from "./core";
import { notFound } from "./errors";
import { baseUrl, paginate, params, query, reference, rest, single, who } from "./http";
import { SCOPES } from "./scopes";
import { type EscalationPolicy, owned } from "./store";

function render(core: EmulatorCore, base: string, p: EscalationPolicy) {
  return {
    id: p.id,
    type: "escalation_policy",
    summary: p.name,
    self: `${base}/escalation_policies/${p.id}`,
    html_url: `${base}/escalation_policies#${p.id}`,
    name: p.name,
    description: null,
    num_loops: 0,
    escalation_rules: [],
    services: Object.values(core.state.services)
      .filter((s) => s.escalationPolicyId === p.id)
      // The service reference as kinds/service/model.ts writes it (the core imports no kind).
      .map((s) => reference("service", s.id, s.name, `${base}/services/${s.id}`, `${base}/service-directory/${s.id}`)),
    teams: [],
  };
}

export function registerEscalationPolicies(app: FastifyInstance, core: EmulatorCore): void {
  rest(app, "GET", "/escalation_policies", SCOPES.policiesRead, (req) => {
    const q = query(req);
    const text = single(q.query)?.toLowerCase();
    const list = Object.values(core.state.escalationPolicies)
      .filter((p) => p.accountId === who(req).accountId && (!text || p.name.toLowerCase().includes(text)))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const { page, meta } = paginate(list, q);
    const base = baseUrl(core, req);
    return { escalation_policies: page.map((p) => render(core, base, p)), ...meta };
  });

  rest(app, "GET", "/escalation_policies/:id", SCOPES.policiesRead, (req) => {
    const p = owned(core.state.escalationPolicies, params(req).id, who(req).accountId);
    if (!p) throw notFound(`Escalation policy ${params(req).id}`);
    return { escalation_policy: render(core, baseUrl(core, req), p) };
  });
}
