// The service as it really behaves (issue 28): PagerDuty shows a new object a few seconds after its
// create (longer in the EU) — 404 to reads, updates, deletes and child creates, left out of
// listings. The emulator hides every new object for LAG_MS (EU_LAG_MS in the EU account); the real
// CLI deploys services with integrations and event rules into both accounts, refreshes and updates
// right after, and destroys. Each time the emulator must hold exactly what the state records (0
// duplicates, 0 orphans, 0 missing) and a preview must be clean. A lost machine under lag is the
// recovery's unit tests' (tests/unit/provider/operations/recovery.test.ts, "under the service's lag").
import { inventory, stateOf, TYPES } from "./crash-support";
import { PulumiProject, startEmulatorProcess, type EmulatorProcess } from "./harness";

jest.setTimeout(15 * 60_000);

const LAG_MS = 3_000;
const EU_LAG_MS = 6_000;
/** How long the provider waits for a young object at most (pagerduty:consistencyWindow): longer than either lag. */
const WINDOW_S = 20;

// Services named after the stack, each with an integration and an event rule; "extras" adds what
// writes right after a create: a non-active status (a PUT after the POST) and a rule placed first
// (a reorder of rules made moments ago).
const program = `
import * as pulumi from "@pulumi/pulumi";
import * as pd from "pulumi-pagerduty-dynamic";
const cfg = new pulumi.Config();
const stack = pulumi.getStack();
const description = cfg.get("description") ?? "managed";
const accounts = [
  { key: "us", n: cfg.requireNumber("services"), account: undefined, policy: cfg.require("escalationPolicyId") },
  { key: "eu", n: cfg.getNumber("euServices") ?? 0, account: new pd.Account("eu"), policy: cfg.get("euEscalationPolicyId") ?? "" },
];
for (const a of accounts) {
  for (let i = 0; i < a.n; i++) {
    const extras = cfg.getBoolean("extras") && i === 0;
    const name = a.key === "us" ? \`\${stack} svc \${i}\` : \`\${stack} eu \${i}\`;
    const svc = new pd.Service(\`\${a.key}-svc\${i}\`, { name, description, escalationPolicy: a.policy, account: a.account, ...(extras ? { status: "disabled" } : {}) });
    new pd.ServiceIntegration(\`\${a.key}-int\${i}\`, { service: svc.id, type: "events_api_v2_inbound_integration", name: \`events \${i}\`, account: a.account });
    new pd.ServiceEventRule(\`\${a.key}-rule\${i}\`, { service: svc.id, actions: { annotate: { value: \`\${description} \${i}\` } }, account: a.account });
    if (extras) new pd.ServiceEventRule(\`\${a.key}-first\${i}\`, { service: svc.id, position: 0, actions: { annotate: { value: "first" } }, account: a.account });
  }
}
`;

let emu: EmulatorProcess;
let project: PulumiProject;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Waits until whatever was just made is visible everywhere, so the out-of-band counts see it all. */
const lagOver = () => sleep(EU_LAG_MS + 500);

async function lagStats(): Promise<{ hidden404: number; leftOut: number }> {
  return (await emu.admin("GET", "/_emulator/stats")).body.lag;
}

/** Services of the EU account named after `stack`, with their integrations and rules. */
async function euInventory(stack: string) {
  const r = await emu.euApi("GET", `/services?query=${encodeURIComponent(stack)}&limit=100&include[]=integrations`);
  const services = (r.body.services as Array<{ id: string; name: string; integrations?: Array<{ id: string }> }>).filter((s) =>
    s.name.startsWith(`${stack} eu `),
  );
  const rules: string[] = [];
  for (const s of services) rules.push(...((await emu.euApi("GET", `/services/${s.id}/rules?limit=100`)).body.rules as Array<{ id: string }>).map((x) => x.id));
  return {
    services: services.map((s) => s.id).sort(),
    integrations: services.flatMap((s) => (s.integrations ?? []).map((i) => i.id)).sort(),
    rules: rules.sort(),
  };
}

/** Ids the state records per type, for the EU account's resources (their URNs say "eu-"). */
function euState(stack?: string) {
  const rs = project.resources(stack).filter((r) => /::eu-/.test(r.urn));
  const ids = (t: string) =>
    rs
      .filter((r) => r.type === t)
      .map((r) => r.id!)
      .sort();
  return { services: ids(TYPES.service), integrations: ids(TYPES.integration), rules: ids(TYPES.rule) };
}

/** Every id of the stack's state, for "nothing dropped" checks. */
const allIds = (stack?: string) =>
  project
    .resources(stack)
    .filter((r) => r.id && r.type.startsWith("pulumi-nodejs:dynamic/pagerduty:"))
    .map((r) => `${r.type}/${r.id}`)
    .sort();

/** Both accounts hold exactly what the state records; the preview is clean. */
async function expectBothConverged(stack: string, us: number, eu: number): Promise<void> {
  await lagOver();
  const usInv = await inventory(emu, stack);
  const euInv = await euInventory(stack);
  const usState = project.resources().filter((r) => !/::eu-/.test(r.urn));
  const ids = (t: string) =>
    usState
      .filter((r) => r.type === t)
      .map((r) => r.id!)
      .sort();
  expect(usInv.services.map((s) => s.id).sort()).toEqual(ids(TYPES.service));
  expect(usInv.integrations.map((i) => i.id).sort()).toEqual(ids(TYPES.integration));
  expect(usInv.rules.map((r) => r.id).sort()).toEqual(ids(TYPES.rule));
  expect(usInv.services).toHaveLength(us);
  expect(euInv).toEqual(euState());
  expect(euInv.services).toHaveLength(eu);
  expect(stateOf(project).pending).toEqual([]);
  const preview = project.run(["preview", "--expect-no-changes"]);
  if (preview.code !== 0) throw new Error(`preview --expect-no-changes exited ${preview.code}\n${preview.stdout}\n${preview.stderr}`);
}

beforeAll(async () => {
  emu = await startEmulatorProcess(["--lag", String(LAG_MS), "--lag-eu", String(EU_LAG_MS)]);
  expect(emu.lag).toMatchObject({ ms: LAG_MS, euMs: EU_LAG_MS });
  const eu = emu.eu!;
  project = PulumiProject.create("lag", program, emu, {
    services: "3",
    euServices: "2",
    extras: "true",
    euEscalationPolicyId: eu.escalationPolicyId,
    "pagerduty:consistencyWindow": String(WINDOW_S),
  });
  const set = (key: string, value: string, secret = false) =>
    project.must(["config", "set", "--path", ...(secret ? ["--secret"] : []), `pagerduty:accounts.eu.${key}`], 0, value);
  set("apiUrl", emu.euApiUrl!);
  set("authUrl", emu.authUrl);
  set("subdomain", eu.account.subdomain);
  set("serviceRegion", "eu");
  set("clientId", eu.oauth.clientId);
  set("clientSecret", eu.oauth.clientSecret, true);
  set("consistencyWindow", String(WINDOW_S));
});

afterAll(async () => {
  project?.remove();
  await emu?.stop();
});

test("the first `up` of services with their children succeeds; a refresh right after drops nothing; both accounts converge", async () => {
  const before = await lagStats();
  const up = project.run(["up", "--yes", "--skip-preview"]);
  if (up.code !== 0) throw new Error(`up failed\n${up.stdout}\n${up.stderr}`);
  // The lag was met, not avoided: the provider saw 404s and waited them out.
  expect((await lagStats()).hidden404).toBeGreaterThan(before.hidden404);
  const ids = allIds();
  // 3 US and 2 EU services, each with an integration and a rule, and one rule placed first per account.
  expect(ids).toHaveLength(3 * 3 + 1 + 2 * 3 + 1);
  // At once, while the newest objects are still hidden.
  const refresh = project.run(["refresh", "--yes", "--skip-preview"]);
  if (refresh.code !== 0) throw new Error(`refresh failed\n${refresh.stdout}\n${refresh.stderr}`);
  expect(allIds()).toEqual(ids);
  await expectBothConverged("dev", 3, 2);
});

test("`up --refresh` right after an `up` that made new objects drops nothing; an update of every service and rule right after succeeds", async () => {
  project.must(["config", "set", "services", "4"]);
  project.must(["up", "--yes", "--skip-preview"]);
  const ids = allIds();
  project.must(["config", "set", "description", "second version"]);
  const up = project.run(["up", "--refresh", "--yes", "--skip-preview"]);
  if (up.code !== 0) throw new Error(`up --refresh failed\n${up.stdout}\n${up.stderr}`);
  expect(allIds()).toEqual(ids);
  await expectBothConverged("dev", 4, 2);
  const svc = project.resources().find((r) => r.type === TYPES.service && r.urn.endsWith("::us-svc3"))!;
  expect(svc.outputs.description).toBe("second version");
});

test("an object deleted by hand, older than the window, is reported gone by the next refresh within seconds", async () => {
  // The objects are older than the window by now only if enough time passed: wait for it.
  const created = Math.max(
    ...project
      .resources()
      .filter((r) => r.type === TYPES.service)
      .map((r) => Date.parse(r.outputs.createdAt)),
  );
  await sleep(Math.max(0, created + WINDOW_S * 1000 - Date.now()) + 500);
  const integration = project.resources().find((r) => r.type === TYPES.integration && r.urn.endsWith("::us-int1"))!;
  const gone = await emu.api("DELETE", `/services/${integration.outputs.service}/integrations/${integration.id}`);
  expect(gone.status).toBe(204);
  const started = Date.now();
  const refresh = project.run(["refresh", "--yes", "--skip-preview"]);
  const seconds = (Date.now() - started) / 1000;
  process.stdout.write(`lag.test: refresh that found 1 of ${allIds().length} objects deleted by hand took ${seconds.toFixed(1)} s\n`);
  expect(refresh.code).toBe(0);
  expect(project.resources().find((r) => r.urn.endsWith("::us-int1"))).toBeUndefined();
  // The next up makes it again, once.
  project.must(["up", "--yes", "--skip-preview"]);
  await expectBothConverged("dev", 4, 2);
});

test("a destroy right after an `up`, with deletes lagging too, deletes everything", async () => {
  await emu.admin("PUT", "/_emulator/lag", { deletes: true });
  try {
    project.must(["config", "set", "services", "5"]);
    project.must(["up", "--yes", "--skip-preview"]);
    const destroy = project.run(["destroy", "--yes", "--skip-preview"]);
    if (destroy.code !== 0) throw new Error(`destroy failed\n${destroy.stdout}\n${destroy.stderr}`);
    await lagOver();
    expect(project.resources()).toEqual([]);
    expect((await inventory(emu, "dev")).services).toEqual([]);
    expect(await euInventory("dev")).toEqual({ services: [], integrations: [], rules: [] });
  } finally {
    await emu.admin("PUT", "/_emulator/lag", { deletes: false });
  }
});
