// The warnings of an orchestration PUT's reply, as the description's OrchestrationWarningInvalidData
// has them (`warning_type: "invalid_data"`; its features include `cache_variable:conditions`,
// `cache_variable:annotate` and `escalation_policy`): what the orchestration names that the
// service or account does not have. PagerDuty accepts such an orchestration; so does the emulator.
import { cacheVariablesOf } from "../cache-variable/model";
import type { EmulatorCore } from "../../core";
import type { ServiceRecord } from "../../store";
import type { OrchestrationRecord } from "./model";
import { nodesOf } from "../../pcl/checks";
import { compileCondition } from "../../pcl/compile";
import type { PathNode } from "../../pcl/pcl-ast";
import { templateRefs } from "../../pcl/templates";

export interface OrchestrationWarning {
  message: string;
  rule_id: string | null;
  feature: string;
  feature_type: "conditions" | "actions";
  warning_type: "invalid_data";
}

/** The warnings of a PUT's reply: what the orchestration names that the account does not have. */
export function orchestrationWarnings(core: EmulatorCore, s: ServiceRecord, o: Pick<OrchestrationRecord, "sets" | "catch_all">): OrchestrationWarning[] {
  const names = new Set(cacheVariablesOf(core, s.id).map((c) => c.name));
  const out: OrchestrationWarning[] = [];
  const warn = (rule_id: string | null, feature: string, feature_type: OrchestrationWarning["feature_type"], message: string) =>
    out.push({ message, rule_id, feature, feature_type, warning_type: "invalid_data" });
  const unknownVar = (p: { root: string; first?: string | number }) => p.root === "cache_var" && !names.has(String(p.first));
  const check = (rule_id: string | null, conditions: { expression: string }[], actions: Record<string, unknown>) => {
    for (const c of conditions) {
      const { node } = compileCondition(c.expression);
      const paths = node ? nodesOf(node).filter((n): n is PathNode => n.kind === "path") : [];
      for (const p of paths.filter((x) => unknownVar({ root: x.root, first: x.elements[0] })))
        warn(
          rule_id,
          "cache_variable:conditions",
          "conditions",
          `${p.text}: the orchestration has no cache variable "${p.elements[0]}" (the condition reads nil)`,
        );
    }
    if (typeof actions.annotate === "string")
      for (const r of templateRefs(actions.annotate).filter(unknownVar))
        warn(rule_id, "cache_variable:annotate", "actions", `annotate: the orchestration has no cache variable "${r.first}" (it renders as nothing)`);
    const policy = typeof actions.escalation_policy === "string" ? actions.escalation_policy : undefined;
    if (policy !== undefined && core.state.escalationPolicies[policy]?.accountId !== s.accountId)
      warn(rule_id, "escalation_policy", "actions", `escalation_policy "${policy}" is not an escalation policy of this account: incidents keep the service's`);
  };
  for (const set of o.sets) for (const r of set.rules) check(r.id, r.conditions, r.actions);
  check(null, [], o.catch_all.actions);
  return out;
}
