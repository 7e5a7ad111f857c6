// The lookups through both doors: the dynamic providers' Lookup resource (its check, as a preview
// runs it) and the package's functions (the plugin's invoke), each configured its own way, given the
// same calls, come to the same outcome: the same result, the same failures (a function's arguments
// are at the top: `name`, not `args.name`; settings in the package's keys), the same requests.
// HTTP over MockAgent.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PackageProvider } from "../../../plugin/provider";
import { Deployment } from "../../../provider/account/deployment";
import { lookupProvider } from "../../../provider/operations/lookup-resource";
import { UNKNOWN } from "../../../provider/kernel/check";
import { lookups } from "../../../provider/registry";
import { useMockAgent } from "../support/http-mock";
import { notFound, type Recorded, reply } from "../support/resource-api";

const US = "https://api.us.test";
const EU = "https://api.eu.test";
const agent = useMockAgent();
let dir: string;
beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "ppd-doors-"))));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The same settings under each door's keys: a default account (US) and `eu`. */
const settings = (ns: string) => ({
  [`${ns}:token`]: "us-key",
  [`${ns}:apiUrl`]: US,
  [`${ns}:accounts`]: JSON.stringify({ eu: { token: "eu-key", apiUrl: EU, serviceRegion: "eu" } }),
});

const wiring = () => ({ warn: () => undefined, env: {}, journalDir: dir, clients: { dispatcher: agent() } });
const deployment = () => new Deployment(wiring());

/** What a door's answer comes to, in the dynamic door's terms. */
type Outcome = { found: unknown } | { unknown: true } | { failed: string[] };

type Call = { fn: string; args: Record<string, unknown>; account?: string };

/** The dynamic door: the Lookup resource's check, over a deployment configured with `pagerduty:*`. */
async function dynamicDoor(call: Call, calls: Recorded[]): Promise<Outcome> {
  const d = deployment();
  const config = settings("pagerduty");
  d.configure((k) => config[k]);
  const lookup = lookups().find((l) => l.definition.functionName === call.fn)!;
  const news = { query: lookup.definition.query, args: call.args, ...(call.account ? { account: call.account } : {}), __provider: "p" };
  calls.length = 0;
  const r = await lookupProvider(lookups(), (a) => d.context(a)).check!({}, news);
  if (r.failures?.length) return { failed: r.failures.map((f) => f.reason) };
  return r.inputs.result === undefined ? { unknown: true } : { found: r.inputs.result };
}

/** The package door: the plugin's configure (credentials proven) and invoke, with `pagerduty-dynamic:*`. */
async function packageDoor(call: Call, calls: Recorded[]): Promise<Outcome> {
  const provider = new PackageProvider({ deployment: wiring(), version: "1.0.0" });
  for (const api of [US, EU]) reply({ pool: () => agent().get(api), calls }, "GET", "/services?limit=1", { services: [] });
  await provider.configure(new Map(Object.entries(settings("pagerduty-dynamic"))));
  calls.length = 0;
  const r = await provider.invoke(`pagerduty-dynamic:index:${call.fn}`, { ...call.args, ...(call.account ? { account: call.account } : {}) });
  if (r.failures?.length) return { failed: r.failures.map((f) => f.reason) };
  return Object.keys(r.outputs ?? {}).length ? { found: r.outputs } : { unknown: true };
}

/** The dynamic door's outcome as a function reports it: arguments at the top, settings in the package's keys. */
const asFunction = (o: Outcome): Outcome =>
  "failed" in o ? { failed: o.failed.map((reason) => reason.replace(/^args(\.|: )/, "").replace(/\bpagerduty:/g, "pagerduty-dynamic:")) } : o;

const service = (id: string, name: string) => ({ id, name, description: null, escalation_policy: { id: "PEP" }, status: "active" });

/** Each call, with the API's answers it needs (once per door), and what both doors must come to. */
const CASES: Array<[string, Call, (api: (host: string) => (method: string, p: string, data: unknown, status?: number) => void) => void, RegExp]> = [
  [
    "found in the default account",
    { fn: "getService", args: { name: "Checkout" } },
    (api) => api(US)("GET", "/services?query=Checkout&limit=100&offset=0", { services: [service("P1", "Checkout")], more: false }),
    /"found":\{.*"id":"P1"/,
  ],
  [
    "found in a named account",
    { fn: "getService", args: { name: "Checkout" }, account: "eu" },
    (api) => api(EU)("GET", "/services?query=Checkout&limit=100&offset=0", { services: [service("P9", "Checkout")], more: false }),
    /"found":\{.*"id":"P9"/,
  ],
  ["an account name that cannot be one", { fn: "getService", args: { name: "Checkout" }, account: "e u" }, () => {}, /"account: must be a letter/],
  ["an account the settings lack", { fn: "getService", args: { name: "Checkout" }, account: "apac" }, () => {}, /account \\"apac\\" is not configured/],
  ["an argument not known yet", { fn: "getServiceIntegration", args: { service: UNKNOWN, name: "Alerts" } }, () => {}, /^\{"unknown":true\}$/],
  ["the account not known yet", { fn: "getService", args: { name: "Checkout" }, account: UNKNOWN }, () => {}, /^\{"unknown":true\}$/],
  ["a bad argument", { fn: "getService", args: { name: "" } }, () => {}, /"name: must not be empty"/],
  ["an argument the lookup does not take", { fn: "getPriority", args: { name: "P1", service: "P2" } }, () => {}, /Unrecognized key/],
  [
    "a window the lookup refuses",
    { fn: "getServiceAuditRecords", args: { service: "P1", since: "2026-01-02T00:00:00Z", until: "2026-01-01T00:00:00Z" } },
    () => {},
    /"until: must be after \\"since\\""/,
  ],
  [
    "a miss on the name",
    { fn: "getService", args: { name: "Nope" } },
    (api) => api(US)("GET", "/services?query=Nope&limit=100&offset=0", { services: [], more: false }),
    /"name: no service is named \\"Nope\\"/,
  ],
  [
    "a miss on the service",
    { fn: "getServiceIntegration", args: { service: "PX", name: "Alerts" } },
    (api) => api(US)("GET", "/services/PX?include%5B%5D=integrations", notFound, 404),
    /"service: no service has id \\"PX\\""/,
  ],
];

test.each(CASES)("%s: the same outcome through both doors", async (_what, call, answers, expected) => {
  const requests: Record<"dynamic" | "package", Recorded[]> = { dynamic: [], package: [] };
  const api = (calls: Recorded[]) => (host: string) => (method: string, p: string, data: unknown, status?: number) =>
    reply({ pool: () => agent().get(host), calls }, method, p, data, status);
  answers(api(requests.dynamic));
  const viaResource = await dynamicDoor(call, requests.dynamic);
  answers(api(requests.package));
  const viaFunction = await packageDoor(call, requests.package);
  expect(viaFunction).toEqual(asFunction(viaResource));
  expect(JSON.stringify(viaFunction)).toMatch(expected);
  expect(requests.package).toEqual(requests.dynamic);
});

test("an unknown function fails naming it; a missing credential is worded in the package's keys", async () => {
  const provider = new PackageProvider({ deployment: wiring(), version: "1.0.0" });
  await expect(provider.invoke("pagerduty-dynamic:index:getNothing", {})).rejects.toThrow(/unknown function "pagerduty-dynamic:index:getNothing"/);
  const r = await provider.invoke("pagerduty-dynamic:index:getService", { name: "x" });
  expect(r.failures?.[0].reason).toMatch(/"pagerduty-dynamic:clientId"/);
});
