// The small stacks' programs: N services, each with an Events API v2 integration and an event rule,
// as the comparison's (bench/compare-program.ts) and as a YAML program of the package, whose
// version 2 changes every service's description and every rule's action, as the TypeScript one's.
export function yamlProgram(o: { services: number; prefix: string; version: 1 | 2 }): string {
  const resources = Array.from(
    { length: o.services },
    (_, i) => `  svc${i}:
    type: pagerduty-dynamic:index:Service
    properties:
      name: ${JSON.stringify(`${o.prefix} ${i}`)}
      description: ${o.version === 2 ? "benchmark, second version" : "benchmark"}
      escalationPolicy: \${escalationPolicyId}
  int${i}:
    type: pagerduty-dynamic:index:ServiceIntegration
    properties:
      service: \${svc${i}.id}
      type: events_api_v2_inbound_integration
      name: Events API v2
  rule${i}:
    type: pagerduty-dynamic:index:ServiceEventRule
    properties:
      service: \${svc${i}.id}
      position: 0
      conditions:
        operator: and
        subconditions:
          - operator: exists
            parameters: { path: payload.source }
      actions:
        severity: { value: ${o.version === 2 ? "warning" : "critical"} }
`,
  );
  return `name: bench-small
runtime: yaml
config:
  escalationPolicyId:
    type: string
resources:
${resources.join("")}`;
}
