// The Pulumi programs of `npm run bench:compare`: N services, each with one Events API v2
// integration and one event rule, built either with this package or with the engine floor.
//
// The floor is a dynamic provider inside the program whose operations return at once, without
// HTTP, with fake ids and the outputs this package's resources have (the integration key a secret
// too). Like sdk/provider.ts it is one small object per resource kind, capturing only its kind and
// a few constant outputs, so what the engine serializes into state costs about the same: the
// difference between the two runs is our provider's own time.

export interface ProgramOptions {
  services: number;
  /** Service names are `${prefix} ${i}` (unique per account: concurrent stacks use distinct prefixes). */
  prefix: string;
  floor: boolean;
  /** 2: every service's description and every rule's action changed (the update phase). */
  version?: 1 | 2;
}

const FLOOR = `
type Outs = Record<string, unknown>;
function floorProvider(kind: string, computed: Outs): pulumi.dynamic.ResourceProvider {
  return {
    create: async (inputs: Outs) => ({ id: kind + "-" + Math.random().toString(36).slice(2, 12), outs: { ...computed, ...inputs } }),
    read: async (id: string, props: Outs) => ({ id, props }),
    // Changed user inputs are an update, as this package's diff reports them.
    diff: async (_id: string, olds: Outs, news: Outs) => ({
      changes: Object.keys(news).some((k) => !k.startsWith("__") && JSON.stringify(olds[k]) !== JSON.stringify(news[k])),
    }),
    update: async (_id: string, _olds: Outs, news: Outs) => ({ outs: { ...computed, ...news } }),
    delete: async () => {},
  };
}
function floorKind(kind: string, computed: Outs, secretOutputs: string[] = []) {
  const provider = floorProvider(kind, computed);
  const placeholders = Object.fromEntries(Object.keys(computed).map((k) => [k, undefined]));
  return class extends pulumi.dynamic.Resource {
    constructor(name: string, args: Outs, opts?: pulumi.CustomResourceOptions) {
      super(provider, name, { ...placeholders, ...args }, pulumi.mergeOptions(opts, { additionalSecretOutputs: secretOutputs }), "floor", kind);
    }
  };
}
const at = { htmlUrl: "https://acme.pagerduty.com/service-directory/PFLOOR00", createdAt: "2026-01-01T00:00:00Z" };
const pagerduty = {
  Service: floorKind("Service", {
    description: "", autoResolveTimeout: null, acknowledgementTimeout: null, status: "active", alertCreation: "create_alerts_and_incidents",
    incidentUrgencyRule: { type: "constant", urgency: "high" }, supportHours: null, scheduledActions: [], alertGroupingParameters: null,
    autoPauseNotificationsParameters: { enabled: false, timeout: null }, ...at, summary: "Bench", lastIncidentTimestamp: null,
  }),
  ServiceIntegration: floorKind("ServiceIntegration", {
    vendor: null, integrationEmail: null, emailIncidentCreation: null, emailFilterMode: null, emailFilters: null, emailParsers: null,
    emailParsingFallback: null, integrationKey: "0123456789abcdef0123456789abcdef", ...at, summary: "Events API v2",
  }, ["integrationKey"]),
  ServiceEventRule: floorKind("ServiceEventRule", { disabled: false, timeFrame: null, variables: [], summary: "Event rule" }),
};
`;

export function program(o: ProgramOptions): string {
  return `
import * as pulumi from "@pulumi/pulumi";
${o.floor ? FLOOR : `import * as pagerduty from "pulumi-pagerduty-dynamic";`}
const escalationPolicy = new pulumi.Config().require("escalationPolicyId");
for (let i = 0; i < ${o.services}; i++) {
  const svc = new pagerduty.Service("svc-" + i, { name: ${JSON.stringify(o.prefix)} + " " + i, description: ${JSON.stringify(o.version === 2 ? "benchmark, second version" : "benchmark")}, escalationPolicy });
  new pagerduty.ServiceIntegration("int-" + i, { service: svc.id, type: "events_api_v2_inbound_integration", name: "Events API v2" });
  new pagerduty.ServiceEventRule("rule-" + i, {
    service: svc.id,
    position: 0,
    conditions: { operator: "and", subconditions: [{ operator: "exists", parameters: { path: "payload.source" } }] },
    actions: { severity: { value: ${JSON.stringify(o.version === 2 ? "warning" : "critical")} } },
  });
}
`;
}

/** Resources per service in the program. */
export const RESOURCES_PER_SERVICE = 3;
