// What the kinds of a service's children need of the service: finding it in the caller's account,
// and the references other objects carry to it and to its escalation policy.
import type { Principal } from "../../auth";
import type { EmulatorCore } from "../../core";
import { notFound } from "../../errors";
import { reference } from "../../http";
import { owned, type ServiceRecord } from "../../store";

/** The service `id` of the caller's account, or 404 (other accounts' services are invisible). */
export function findService(core: EmulatorCore, p: Principal, id: string): ServiceRecord {
  const s = owned(core.state.services, id, p.accountId);
  if (!s) throw notFound(`Service ${id}`);
  return s;
}

export function serviceRef(base: string, s: Pick<ServiceRecord, "id" | "name">) {
  return reference("service", s.id, s.name, `${base}/services/${s.id}`, `${base}/service-directory/${s.id}`);
}

/** The reference to an escalation policy; `known` names it once it is deleted. */
export function policyRefById(core: EmulatorCore, base: string, id: string, known = id) {
  const policy = core.state.escalationPolicies[id];
  return reference("escalation_policy", id, policy?.name ?? known, `${base}/escalation_policies/${id}`, `${base}/escalation_policies#${id}`);
}

/** The reference to a service's escalation policy (its last known name once the policy is deleted). */
export const policyRef = (core: EmulatorCore, base: string, s: ServiceRecord) => policyRefById(core, base, s.escalationPolicyId, s.escalationPolicySummary);
