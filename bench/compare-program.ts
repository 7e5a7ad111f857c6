// The Pulumi programs of `npm run bench:compare`: N services, each with one Events API v2
// integration and one event rule, built with this package or with a floor.
//
// A floor is a dynamic provider whose operations return at once, without HTTP, with fake ids. Three:
// - "floor": the minimal dynamic provider as issue 38 defines it, what a dynamic provider written
//   with Pulumi's API pays at least: `pulumi.dynamic.Resource` over one do-nothing provider object,
//   the `module.exports` of a package under the project's node_modules (`ppd-bench-floor`, written
//   by `floorModule`), which the closure serializer writes as a `require` of that package; its
//   outputs are the inputs it was given, so its resources carry the same user fields as ours and
//   nothing else.
// - "bare floor": the same provider object, but each resource writes its `__provider` as one short
//   `require` line, as this package's classes do (sdk/provider.ts): lighter than Pulumi's dynamic
//   API makes any provider.
// - "shaped floor": the bare floor's provider object per kind, but its resources carry what this
//   package's do: the same `__provider` line form, `__origin` in the inputs, and as outputs the
//   outputs this package's resources have with its bookkeeping (`__declared` as one string,
//   `__createdAt` on event rules), the integration key a secret. Beside the floor it measures what
//   the engine pays for this package's state alone; beside this package, what the work costs.
// - "heavy floor": a provider per kind that returns the outputs this package's resources have (the
//   integration key a secret too), made in the program, so the serializer inlines its methods with
//   what they capture (about 2 KB of `__provider`, stored twice per resource): a floor whose
//   resources weigh about what this package's did before its providers became modules (issue 30).

import * as fs from "node:fs";
import * as path from "node:path";

export type Impl = "provider" | "floor" | "bare floor" | "shaped floor" | "heavy floor";

export interface ProgramOptions {
  services: number;
  /** Service names are `${prefix} ${i}` (unique per account: concurrent stacks use distinct prefixes). */
  prefix: string;
  impl: Impl;
  /** 2: every service's description and every rule's action changed (the update phase). */
  version?: 1 | 2;
}

/** The floor's and the bare floor's provider: the package's `module.exports`, the same object for every kind. */
const MINIMAL_PROVIDER = `
module.exports = {
  create: async (inputs) => ({ id: Math.random().toString(36).slice(2, 12), outs: inputs }),
  read: async (id, props) => ({ id, props }),
  // Changed user inputs are an update, as this package's diff reports them.
  diff: async (_id, olds, news) => ({
    changes: Object.keys(news).some((k) => !k.startsWith("__") && JSON.stringify(olds[k]) !== JSON.stringify(news[k])),
  }),
  update: async (_id, _olds, news) => ({ outs: news }),
  delete: async () => {},
};
`;

/** The heavy floor's provider object of one kind, with the outputs this package's resources compute. */
const FLOOR_PROVIDER = `
function floorProvider(kind, computed) {
  return {
    create: async (inputs) => ({ id: kind + "-" + Math.random().toString(36).slice(2, 12), outs: { ...computed, ...inputs } }),
    read: async (id, props) => ({ id, props }),
    // Changed user inputs are an update, as this package's diff reports them.
    diff: async (_id, olds, news) => ({
      changes: Object.keys(news).some((k) => !k.startsWith("__") && JSON.stringify(olds[k]) !== JSON.stringify(news[k])),
    }),
    update: async (_id, _olds, news) => ({ outs: { ...computed, ...news } }),
    delete: async () => {},
  };
}
`;

const AT = `{ htmlUrl: "https://acme.pagerduty.com/service-directory/PFLOOR00", createdAt: "2026-01-01T00:00:00Z" }`;

/**
 * Per kind: the outputs the heavy floor computes, and which are secret; `live`: the values the
 * service reports for the benchmark's services where they differ, which the shaped floor reports.
 */
const KIND_SHAPES: Record<string, { computed: string; secret: string[]; live?: string }> = {
  Service: {
    live: "{ autoResolveTimeout: 14400, acknowledgementTimeout: 1800, alertGroupingParameters: { type: null } }",
    computed: `{ description: "", autoResolveTimeout: null, acknowledgementTimeout: null, status: "active", alertCreation: "create_alerts_and_incidents",
    incidentUrgencyRule: { type: "constant", urgency: "high" }, supportHours: null, scheduledActions: [], alertGroupingParameters: null,
    autoPauseNotificationsParameters: { enabled: false, timeout: null }, ...${AT}, summary: "Bench", lastIncidentTimestamp: null }`,
    secret: [],
  },
  ServiceIntegration: {
    computed: `{ vendor: null, integrationEmail: null, emailIncidentCreation: null, emailFilterMode: null, emailFilters: null, emailParsers: null,
    emailParsingFallback: null, integrationKey: "0123456789abcdef0123456789abcdef", ...${AT}, summary: "Events API v2" }`,
    secret: ["integrationKey"],
  },
  ServiceEventRule: {
    computed: `{ disabled: false, timeFrame: null, variables: [], summary: "Event rule" }`,
    secret: [],
  },
};

/**
 * The shaped floor's provider objects by kind: the heavy floor's outputs with the inputs over them,
 * and the record this package keeps of the declared inputs (provider/kernel/shape-text.ts's form).
 */
const SHAPED_PROVIDER = `
const shapeOf = (v) => Array.isArray(v) ? "[" + v.map((e) => e !== null && typeof e === "object" ? shapeOf(e) : ".").join(",") + "]"
  : v !== null && typeof v === "object" ? "{" + members(v) + "}" : "";
const members = (o) => Object.keys(o).filter((k) => !k.startsWith("__")).map((k) => k + shapeOf(o[k])).join(",");
// Unset (null) outputs are left out of the state, as this package does (provider/kernel/unset.ts).
const withoutUnset = (o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null));
function shaped(kind, computed) {
  const outs = (inputs) =>
    withoutUnset({ ...computed, ...inputs, __declared: members(inputs), ...(kind === "ServiceEventRule" ? { __createdAt: Date.now() } : {}) });
  return {
    create: async (inputs) => ({ id: kind + "-" + Math.random().toString(36).slice(2, 12), outs: outs(inputs) }),
    read: async (id, props) => ({ id, props }),
    // Changed user inputs are an update, as this package's diff reports them.
    diff: async (_id, olds, news) => ({
      changes: Object.keys(news).some((k) => !k.startsWith("__") && JSON.stringify(olds[k]) !== JSON.stringify(news[k])),
    }),
    update: async (_id, _olds, news) => ({ outs: outs(news) }),
    delete: async () => {},
  };
}
`;

/** The floor's package, `ppd-bench-floor`: its files by path inside the package. */
export function floorModule(): Record<string, string> {
  const files: Record<string, string> = {
    "package.json": JSON.stringify({ name: "ppd-bench-floor", version: "1.0.0", private: true, main: "index.js" }),
    "index.js": `"use strict";${MINIMAL_PROVIDER}`,
    "index.d.ts": `declare const provider: import("@pulumi/pulumi").dynamic.ResourceProvider;\nexport = provider;\n`,
    "provider.js": `"use strict";\n${FLOOR_PROVIDER}\nmodule.exports = floorProvider;\n`,
    "provider.d.ts": `declare function floorProvider(kind: string, computed: object): import("@pulumi/pulumi").dynamic.ResourceProvider;\nexport = floorProvider;\n`,
    "shaped.js": `"use strict";\n${SHAPED_PROVIDER}\nmodule.exports = {\n${Object.entries(KIND_SHAPES)
      .map(([kind, k]) => `  ${kind}: shaped(${JSON.stringify(kind)}, { ...${k.computed}, ...${k.live ?? "{}"} }),`)
      .join("\n")}\n};\n`,
  };
  return files;
}

/** Writes the floors' package into the project's node_modules (`dir`: the project's directory). */
export function installFloor(project: { dir: string }): void {
  const dir = path.join(project.dir, "node_modules", "ppd-bench-floor");
  fs.mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(floorModule())) fs.writeFileSync(path.join(dir, file), text);
}

/**
 * The bare floor's classes: a `CustomResource` of the dynamic type whose `__provider` is one
 * `require` of the package (what sdk/provider.ts writes for this package), the inputs and nothing else.
 */
const BARE_CLASSES = `
const floorProvider = ${JSON.stringify('exports.handler=()=>require("ppd-bench-floor")')};
function floorKind(kind: string) {
  return class extends pulumi.CustomResource {
    constructor(name: string, args: Record<string, unknown>, opts?: pulumi.CustomResourceOptions) {
      super("pulumi-nodejs:dynamic/floor:" + kind, name, { ...args, __provider: floorProvider }, opts);
    }
  };
}
const pagerduty = { Service: floorKind("Service"), ServiceIntegration: floorKind("ServiceIntegration"), ServiceEventRule: floorKind("ServiceEventRule") };
`;

/**
 * The shaped floor's classes: as the bare floor's, with this package's hidden inputs (its
 * provenance key, 32 hex digits) and its secret output.
 */
const SHAPED_CLASSES = `
import { createHash } from "crypto";
function floorKind(kind: string) {
  return class extends pulumi.CustomResource {
    constructor(name: string, args: Record<string, unknown>, opts?: pulumi.CustomResourceOptions) {
      const __origin = createHash("md5").update(kind + "/" + name).digest("hex");
      const __provider = 'exports.handler=()=>require("ppd-bench-floor/shaped").' + kind;
      const secret = kind === "ServiceIntegration" ? { additionalSecretOutputs: ["integrationKey"] } : {};
      super("pulumi-nodejs:dynamic/floor:" + kind, name, { ...args, __origin, __provider }, pulumi.mergeOptions(opts, secret));
    }
  };
}
const pagerduty = { Service: floorKind("Service"), ServiceIntegration: floorKind("ServiceIntegration"), ServiceEventRule: floorKind("ServiceEventRule") };
`;

/**
 * The floor's classes: Pulumi's dynamic resource over the package's object, which the serializer
 * writes as a `require` of the package (issue 38's floor), the inputs and nothing else.
 */
const FLOOR_CLASSES = `
import floorProvider = require("ppd-bench-floor");
function floorKind(kind: string) {
  return class extends pulumi.dynamic.Resource {
    constructor(name: string, args: Record<string, unknown>, opts?: pulumi.CustomResourceOptions) {
      super(floorProvider, name, args, opts, "floor", kind);
    }
  };
}
const pagerduty = { Service: floorKind("Service"), ServiceIntegration: floorKind("ServiceIntegration"), ServiceEventRule: floorKind("ServiceEventRule") };
`;

/** The heavy floor's resource classes, over `provider(kind)`: an object made in the program. */
function floorClasses(provider: (kind: string, k: (typeof KIND_SHAPES)[string]) => string): string {
  return `
type Outs = Record<string, unknown>;
function floorKind(kind: string, provider: pulumi.dynamic.ResourceProvider, computed: string[], secretOutputs: string[]) {
  const placeholders = Object.fromEntries(computed.map((k) => [k, undefined]));
  return class extends pulumi.dynamic.Resource {
    constructor(name: string, args: Outs, opts?: pulumi.CustomResourceOptions) {
      super(provider, name, { ...placeholders, ...args }, pulumi.mergeOptions(opts, { additionalSecretOutputs: secretOutputs }), "floor", kind);
    }
  };
}
const pagerduty = {
${Object.entries(KIND_SHAPES)
  .map(([kind, k]) => `  ${kind}: floorKind(${JSON.stringify(kind)}, ${provider(kind, k)}, Object.keys(${k.computed}), ${JSON.stringify(k.secret)}),`)
  .join("\n")}
};
`;
}

function implementation(impl: Impl): string {
  switch (impl) {
    case "provider":
      return `import * as pagerduty from "pulumi-pagerduty-dynamic";`;
    case "floor":
      return FLOOR_CLASSES;
    case "bare floor":
      return BARE_CLASSES;
    case "shaped floor":
      return SHAPED_CLASSES;
    case "heavy floor":
      // The same factory, called in the program: its objects are no module's exports, so the
      // serializer inlines their methods with the kind and the computed outputs they capture.
      return `import floorProvider = require("ppd-bench-floor/provider");
${floorClasses((kind, k) => `floorProvider(${JSON.stringify(kind)}, ${k.computed})`)}`;
  }
}

export function program(o: ProgramOptions): string {
  return `
import * as pulumi from "@pulumi/pulumi";
${implementation(o.impl)}
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
