// Creates that survive interruptions: the intent journal on disk, and the decisions createOnce makes
// (through the real resource providers and client, over undici's MockAgent).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Journal, type Intent } from "../../../../provider/account/journal";
import { StackState, type Checkpoint, type Exporter } from "../../../../provider/account/stack-state";
import { resource as integration } from "../../../../provider/resources/service-integration";
import { resource as serviceResource } from "../../../../provider/resources/service";
import { API, useApi } from "../../support/resource-api";
import { virtualConsistency } from "../../support/virtual-consistency";

const api = useApi();
const services = api.provider(serviceResource);
const integrations = api.provider(integration);
/**
 * The account context with this test's journal and the stack's state read through `exporter`, of an
 * account that shows no lag (window 0: one search is believed; tests/unit/provider/kernel/consistency.test.ts has the lag).
 */
const setUp = (exporter: Exporter, j = journal) =>
  api.reset({
    journal: j,
    stack: new StackState("organization/recovery/dev", exporter),
    warn: (m) => void warnings.push(m),
    consistency: virtualConsistency(0).consistency,
  });
let dir: string;
let journal: Journal;
let warnings: string[];
/** The stack's state as `pulumi stack export` would print it, and how often it was exported. */
let state: Checkpoint;
let exported: number;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "ppd-journal-"));
  journal = new Journal(path.join(dir, "journal"));
  warnings = [];
  state = { version: 3, deployment: { resources: [], pending_operations: [] } };
  exported = 0;
  setUp(async () => {
    exported++;
    return structuredClone(state);
  });
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const SERVICE_TYPE = "pulumi-nodejs:dynamic/pagerduty:Service";
/** A pending create of the declared Service, as the engine writes it (inputs with `__origin`). */
const pendingCreate = () => ({
  type: "creating",
  resource: { urn: "urn:pulumi:dev::recovery::pulumi-nodejs:dynamic/pagerduty:Service::checkout", type: SERVICE_TYPE, inputs: { ...inputs } },
});
/** A resource of the state holding `id`. */
const held = (id: string, name: string, type = SERVICE_TYPE) => ({ urn: `urn:pulumi:dev::recovery::${type}::${name}`, type, id });

/** The API key of useApi() is "test-key": audit records show it as ****-key. */
const OURS = "****-key";
const ORIGIN = "0123456789abcdef0123456789abcdef";

/** Answers GETs whose path (with query) starts with `prefix`. */
function answer(method: string, prefix: string, data: unknown, statusCode = 200): void {
  api
    .pool()
    .intercept({ method, path: (p: string) => p === prefix || p.startsWith(`${prefix}?`) })
    .reply((opts) => {
      api.calls.push({ method, path: String(opts.path), body: opts.body ? JSON.parse(String(opts.body)) : undefined });
      return { statusCode, data: data === undefined ? "" : JSON.stringify(data), responseOptions: { headers: { "content-type": "application/json" } } };
    });
}

const service = (id: string, name = "Checkout") => ({
  id,
  type: "service",
  name,
  status: "active",
  escalation_policy: { id: "PEP1" },
  created_at: new Date().toISOString(),
});
const createRecord = (id: string, type: string, credential: string, at = Date.now()) => ({
  id: `R${id}`,
  execution_time: new Date(at).toISOString(),
  action: "create",
  method: { type: "api_token", truncated_token: credential },
  details: { resource: { id, type }, fields: [] },
});
const audit = (records: unknown[]) => ({ records, limit: 100, next_cursor: null });
const inputs = { name: "Checkout", escalationPolicy: "PEP1", __origin: ORIGIN };
const intent = (extra: Partial<Intent> = {}): Intent => ({ origin: ORIGIN, kind: "Service", sentAt: Date.now() - 5_000, credential: OURS, ...extra });

describe("journal", () => {
  test("an intent is on disk before the request and the id after the reply; files are private and hold no secret", async () => {
    await journal.begin(intent());
    expect(journal.load(ORIGIN)).toMatchObject({ origin: ORIGIN, credential: OURS });
    expect(journal.load(ORIGIN)!.id).toBeUndefined();
    await journal.done(intent(), "PNEW");
    expect(journal.load(ORIGIN)!.id).toBe("PNEW");
    expect(journal.claimant("Service", "PNEW")).toBe(ORIGIN);
    expect(fs.statSync(journal.dir).mode & 0o777).toBe(0o700);
    const files = fs.readdirSync(journal.dir).filter((f) => f.endsWith(".json"));
    expect(files).toHaveLength(1);
    expect(fs.statSync(path.join(journal.dir, files[0])).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(path.join(journal.dir, files[0]), "utf8")).not.toContain("test-key");
  });

  test("an id the engine diffs is handed over to the state: the journal forgets it", async () => {
    await journal.done(intent(), "PNEW");
    await services.diff!("PNEW", { name: "Checkout" }, { name: "Checkout" });
    await journal.idle();
    expect(journal.load(ORIGIN)).toBeUndefined();
    expect(journal.claimant("Service", "PNEW")).toBeUndefined();
  });

  test("an id the engine deletes is handed over: the next create of the declared resource makes no check of the old id", async () => {
    await journal.done(intent(), "POLD");
    answer("DELETE", "/services/POLD", undefined, 204);
    await services.delete!("POLD", { name: "Checkout" });
    await journal.idle();
    expect(journal.load(ORIGIN)).toBeUndefined();
    answer("POST", "/services", { service: service("PNEW") }, 201);
    await expect(services.create!(inputs)).resolves.toMatchObject({ id: "PNEW" });
    expect(api.calls.map((c) => `${c.method} ${c.path}`)).toEqual(["DELETE /services/POLD", "POST /services"]);
  });

  test("entries older than 30 days are dropped when the journal is next written", async () => {
    await journal.done(intent({ sentAt: Date.now() - 31 * 86_400_000 }), "POLD");
    const fresh = new Journal(journal.dir);
    await fresh.begin(intent({ origin: "other" }));
    expect(fresh.load(ORIGIN)).toBeUndefined();
    expect(fresh.claimant("Service", "POLD")).toBeUndefined();
    expect(fresh.load("other")).toBeDefined();
  });
});

describe("createOnce through Service.create", () => {
  test("the uninterrupted create is one request, and the journal records its id", async () => {
    answer("POST", "/services", { service: service("PNEW") }, 201);
    await expect(services.create!(inputs)).resolves.toMatchObject({ id: "PNEW" });
    expect(api.calls.map((c) => `${c.method} ${c.path}`)).toEqual(["POST /services"]);
    expect(journal.load(ORIGIN)).toMatchObject({ id: "PNEW", credential: OURS });
    expect(warnings).toEqual([]);
    // The stack's state was read once (no pending create of this resource): no request for it.
    expect(exported).toBe(1);
  });

  test("a create sent before an interruption is found (name, time, credential) and adopted instead of failing on the name", async () => {
    await journal.begin(intent());
    answer("GET", "/services", { services: [service("PMADE")], more: false });
    answer("GET", "/services/PMADE/audit/records", audit([createRecord("PMADE", "service_reference", OURS)]));
    answer("GET", "/services/PMADE", { service: service("PMADE") });
    await expect(services.create!(inputs)).resolves.toMatchObject({ id: "PMADE" });
    expect(api.calls.some((c) => c.method === "POST")).toBe(false);
    expect(warnings).toEqual([
      expect.stringMatching(
        /^service "Checkout": adopted PMADE instead of creating a second one: an earlier deployment was interrupted after sending its create/,
      ),
    ]);
    expect(journal.load(ORIGIN)!.id).toBe("PMADE");
  });

  test("made by another credential: not adopted; the name conflict names the holder, not an interruption, and the refused intent is forgotten", async () => {
    await journal.begin(intent());
    answer("GET", "/services", { services: [service("PMADE")], more: false });
    answer("GET", "/services/PMADE/audit/records", audit([createRecord("PMADE", "service_reference", "****zzzz")]));
    answer("POST", "/services", { error: { message: "Invalid Input Provided", code: 2001, errors: ['Name has already been taken ("Checkout")'] } }, 400);
    answer("GET", "/services", { services: [service("PMADE")], more: false });
    const err = await services.create!(inputs).catch((e: Error) => e);
    expect(String(err)).toMatch(
      /service "Checkout": the name is taken by service PMADE, which this stack does not manage\. Rename the service in the program, or adopt the existing one with `adoptId`/,
    );
    expect(String(err)).not.toMatch(/interrupted|pagerduty-recover/);
    expect(warnings).toEqual([]);
    expect(journal.load(ORIGIN)).toBeUndefined();
  });

  test("a same-named service another resource of the stack holds is never adopted, even with a journal entry; the error names that resource", async () => {
    // The first `up` of a program with two services of one name: the second's create was refused,
    // the first's service was made by the same credential after the second's intent.
    await journal.begin(intent());
    state.deployment.resources = [held("PFIRST", "first")];
    answer("GET", "/services", { services: [service("PFIRST")], more: false });
    answer("GET", "/services/PFIRST/audit/records", audit([createRecord("PFIRST", "service_reference", OURS)]));
    answer("POST", "/services", { error: { message: "Invalid Input Provided", code: 2001, errors: ['Name has already been taken ("Checkout")'] } }, 400);
    answer("GET", "/services", { services: [service("PFIRST")], more: false });
    await expect(services.create!(inputs)).rejects.toThrow(
      /the name is taken by service PFIRST, which resource urn:pulumi:dev::recovery::pulumi-nodejs:dynamic\/pagerduty:Service::first of this stack manages/,
    );
    expect(api.calls.some((c) => c.method === "PUT")).toBe(false);
    expect(warnings).toEqual([]);
  });

  test("a fresh runner (no journal): an earlier run's create pending in the stack's state makes the one unheld service of that name adopted", async () => {
    // This run's own pending create and the interrupted run's: two entries for the resource.
    state.deployment.pending_operations = [pendingCreate(), pendingCreate()];
    state.deployment.resources = [held("POTHER", "other")];
    answer("GET", "/services", { services: [service("PORPHAN")], more: false });
    answer("GET", "/services/PORPHAN", { service: service("PORPHAN") });
    await expect(services.create!(inputs)).resolves.toMatchObject({ id: "PORPHAN" });
    expect(api.calls.some((c) => c.method === "POST")).toBe(false);
    expect(warnings).toEqual([
      expect.stringMatching(
        /adopted PORPHAN instead of creating a second one: an earlier deployment of this stack was interrupted while creating it \(its create is still pending in the stack's state\)/,
      ),
    ]);
  });

  test("a package stack: the plugin's pending creates count as the dynamic providers' do, and its resources hold what they name", async () => {
    const type = "pagerduty-dynamic:index:Service";
    const op = { type: "creating", resource: { urn: `urn:pulumi:dev::recovery::${type}::checkout`, type, inputs: { ...inputs } } };
    state.deployment.pending_operations = [op, op];
    // One matching service is another package resource's, recorded by the id it was imported with.
    state.deployment.resources = [held("PEP1/PHELD", "imported", type)];
    answer("GET", "/services", { services: [service("PHELD"), service("PORPHAN")], more: false });
    answer("GET", "/services/PORPHAN", { service: service("PORPHAN") });
    await expect(services.create!(inputs)).resolves.toMatchObject({ id: "PORPHAN" });
    expect(api.calls.some((c) => c.method === "POST")).toBe(false);
    expect(warnings).toEqual([expect.stringMatching(/adopted PORPHAN instead of creating a second one/)]);
  });

  test("only this run's own pending create in the state: the create is sent", async () => {
    state.deployment.pending_operations = [pendingCreate()];
    answer("POST", "/services", { service: service("PNEW") }, 201);
    await expect(services.create!(inputs)).resolves.toMatchObject({ id: "PNEW" });
    expect(exported).toBe(1);
    expect(warnings).toEqual([]);
  });

  test("an earlier run's pending create whose object another resource holds: created, nothing adopted", async () => {
    state.deployment.pending_operations = [pendingCreate(), pendingCreate()];
    state.deployment.resources = [held("PHELD", "first")];
    answer("GET", "/services", { services: [service("PHELD")], more: false });
    answer("POST", "/services", { service: service("PNEW", "Checkout") }, 201);
    await expect(services.create!(inputs)).resolves.toMatchObject({ id: "PNEW" });
    expect(warnings).toEqual([]);
  });

  test("a state that cannot be read: one warning naming the recovery command, and the creates go on", async () => {
    setUp(async () => {
      throw new Error("no pulumi here");
    });
    answer("POST", "/services", { service: service("PNEW") }, 201);
    await expect(services.create!(inputs)).resolves.toMatchObject({ id: "PNEW" });
    expect(warnings).toEqual([
      expect.stringMatching(/without checking the stack's state .*no pulumi here.*run `npx --no-install pagerduty-recover` before `pulumi up`/),
    ]);
  });

  test("an answered create the state never recorded: its id is adopted when the object still exists", async () => {
    await journal.done(intent(), "PDONE");
    answer("GET", "/services/PDONE", { service: service("PDONE") });
    answer("GET", "/services/PDONE", { service: service("PDONE") });
    await expect(services.create!(inputs)).resolves.toMatchObject({ id: "PDONE" });
    expect(warnings[0]).toMatch(/adopted PDONE .*interrupted after PagerDuty made it: this machine's journal recorded its id, the stack's state never did/);
  });

  test("an answered create whose object was deleted since: created again", async () => {
    await journal.done(intent(), "PGONE");
    answer("GET", "/services/PGONE", { error: { message: "Not Found", code: 2100 } }, 404);
    answer("POST", "/services", { service: service("PNEW") }, 201);
    await expect(services.create!(inputs)).resolves.toMatchObject({ id: "PNEW" });
  });

  test("a 502 after sending: the service is looked for, and created when it was not made", async () => {
    answer("POST", "/services", { error: { message: "Bad Gateway", code: 2999 } }, 502);
    answer("GET", "/services", { services: [], more: false });
    answer("POST", "/services", { service: service("PNEW") }, 201);
    await expect(services.create!(inputs)).resolves.toMatchObject({ id: "PNEW" });
    expect(api.calls.filter((c) => c.method === "POST")).toHaveLength(2);
  });

  test("a 502 after sending when it was made: adopted, never created twice", async () => {
    answer("POST", "/services", { error: { message: "Bad Gateway", code: 2999 } }, 502);
    answer("GET", "/services", { services: [service("PMADE")], more: false });
    answer("GET", "/services/PMADE/audit/records", audit([createRecord("PMADE", "service_reference", OURS)]));
    answer("GET", "/services/PMADE", { service: service("PMADE") });
    await expect(services.create!(inputs)).resolves.toMatchObject({ id: "PMADE" });
    expect(warnings[0]).toMatch(/the reply to its create was lost: PagerDuty answered 502/);
  });

  test("a journal that cannot be written is reported once; the create goes on", async () => {
    const blocker = path.join(dir, "a-file");
    fs.writeFileSync(blocker, "");
    setUp(
      async () => {
        exported++;
        return structuredClone(state);
      },
      new Journal(path.join(blocker, "journal")),
    );
    answer("POST", "/services", { service: service("PNEW") }, 201);
    await expect(services.create!(inputs)).resolves.toMatchObject({ id: "PNEW" });
    expect(warnings).toEqual([
      expect.stringMatching(/cannot write the intent journal in .*run `npx --no-install pagerduty-recover` before the next `pulumi up`/),
    ]);
  });

  test("without __origin (an older SDK) nothing is journaled", async () => {
    answer("POST", "/services", { service: service("PNEW") }, 201);
    await services.create!({ name: "Checkout", escalationPolicy: "PEP1" });
    expect(fs.existsSync(journal.dir) ? fs.readdirSync(journal.dir).filter((f) => f.endsWith(".json")) : []).toEqual([]);
  });
});

describe("children", () => {
  const integration = (id: string, name = "events") => ({ id, type: "events_api_v2_inbound_integration", name, service: { id: "PSVC" } });
  const news = { service: "PSVC", type: "events_api_v2_inbound_integration", name: "events", __origin: ORIGIN };

  test("a fresh runner: two unheld integrations match an earlier run's pending create: nothing is adopted, the error lists them and the recovery command", async () => {
    const type = "pulumi-nodejs:dynamic/pagerduty:ServiceIntegration";
    const op = { type: "creating", resource: { urn: `urn:pulumi:dev::recovery::${type}::int`, type, inputs: { ...news } } };
    state.deployment.pending_operations = [op, op];
    answer("GET", "/services/PSVC", { service: { id: "PSVC", integrations: [{ id: "PI1" }, { id: "PI2" }] } });
    answer("GET", "/services/PSVC/integrations/PI1", { integration: integration("PI1") });
    answer("GET", "/services/PSVC/integrations/PI2", { integration: integration("PI2") });
    await expect(integrations.create!(news)).rejects.toThrow(
      /interrupted while creating it, and 2 objects that no resource of the stack holds match it \(PI1, PI2\).*npx --no-install pagerduty-recover/,
    );
    expect(api.calls.some((c) => c.method === "POST" || c.method === "PUT")).toBe(false);
  });

  test("several matching objects: nothing is adopted, the error lists them", async () => {
    await journal.begin(intent({ kind: "ServiceIntegration", parent: "PSVC" }));
    answer(
      "GET",
      "/services/PSVC/audit/records",
      audit([createRecord("PI1", "integration_reference", OURS), createRecord("PI2", "integration_reference", OURS)]),
    );
    answer("GET", "/services/PSVC/integrations/PI1", { integration: integration("PI1") });
    answer("GET", "/services/PSVC/integrations/PI2", { integration: integration("PI2") });
    await expect(integrations.create!(news)).rejects.toThrow(/2 objects match \(PI1, PI2\); none is adopted/);
    expect(api.calls.some((c) => c.method === "POST" || c.method === "PUT")).toBe(false);
  });

  test("only the one with the declared identity, not claimed by another resource, qualifies", async () => {
    await journal.begin(intent({ kind: "ServiceIntegration", parent: "PSVC" }));
    await journal.done(intent({ origin: "another", kind: "ServiceIntegration", parent: "PSVC" }), "PI3");
    answer(
      "GET",
      "/services/PSVC/audit/records",
      audit([
        createRecord("PI1", "integration_reference", OURS),
        createRecord("PI2", "integration_reference", OURS),
        createRecord("PI3", "integration_reference", OURS),
      ]),
    );
    answer("GET", "/services/PSVC/integrations/PI1", { integration: integration("PI1", "other name") });
    answer("GET", "/services/PSVC/integrations/PI2", { integration: integration("PI2") });
    answer("GET", "/services/PSVC/integrations/PI3", { integration: integration("PI3") });
    answer("PUT", "/services/PSVC/integrations/PI2", { integration: integration("PI2") });
    await expect(integrations.create!(news)).resolves.toMatchObject({ id: "PI2" });
  });

  test("a dropped connection twice: the message says what happened and that the second create may exist", async () => {
    api
      .pool()
      .intercept({ method: "POST", path: "/services/PSVC/integrations" })
      .replyWithError(Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }));
    answer("GET", "/services/PSVC/audit/records", audit([]));
    api
      .pool()
      .intercept({ method: "POST", path: "/services/PSVC/integrations" })
      .replyWithError(Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }));
    const err = await integrations.create!(news).catch((e) => e as Error);
    expect(String(err)).toMatch(
      /creating integration "events" of service PSVC failed: the connection was closed before the reply arrived; it was not made .* sent once more and that failed too: the connection was closed before the reply arrived\. That second create may have been carried out/,
    );
    expect(String(err)).not.toMatch(/UND_ERR/);
  });
});

describe("names the program gives twice", () => {
  test("the SDK's __conflict fails the check with its message and names no property (nothing is dumped)", async () => {
    const reason = 'Service "b" and Service "a" both set name "Checkout": ...';
    await expect(services.check!({}, { ...inputs, __conflict: reason })).resolves.toEqual({ failures: [{ property: "", reason }] });
    await expect(services.check!({}, inputs)).resolves.not.toHaveProperty("failures", expect.arrayContaining([expect.anything()]));
  });
});

describe("under the service's lag (a 2-minute window, on a virtual clock)", () => {
  let lag: ReturnType<typeof virtualConsistency>;
  beforeEach(() => {
    lag = virtualConsistency(120_000);
    api.reset({
      journal,
      stack: new StackState("organization/recovery/dev", async () => structuredClone(state)),
      warn: (m) => void warnings.push(m),
      consistency: lag.consistency,
    });
  });

  test("a lost reply whose service the listing shows only on the third look is adopted, never created twice", async () => {
    answer("POST", "/services", { error: { message: "Bad Gateway", code: 2999 } }, 502);
    answer("GET", "/services", { services: [], more: false });
    answer("GET", "/services", { services: [], more: false });
    answer("GET", "/services", { services: [service("PMADE")], more: false });
    answer("GET", "/services/PMADE/audit/records", audit([createRecord("PMADE", "service_reference", OURS)]));
    answer("GET", "/services/PMADE", { service: service("PMADE") });
    await expect(services.create!(inputs)).resolves.toMatchObject({ id: "PMADE" });
    expect(api.calls.filter((c) => c.method === "POST")).toHaveLength(1);
    expect(lag.waits).toEqual([1000, 2000]);
  });

  test("a lost reply whose service never shows is created again only once the window since the create has passed", async () => {
    answer("POST", "/services", { error: { message: "Bad Gateway", code: 2999 } }, 502);
    api
      .pool()
      .intercept({ method: "GET", path: (p: string) => p.startsWith("/services?") })
      .reply(200, { services: [], more: false })
      .persist();
    answer("POST", "/services", { service: service("PNEW") }, 201);
    await expect(services.create!(inputs)).resolves.toMatchObject({ id: "PNEW" });
    const waited = lag.waits.reduce((a, b) => a + b, 0);
    expect(waited).toBeGreaterThanOrEqual(119_000);
    expect(waited).toBeLessThanOrEqual(120_000);
    expect(Math.max(...lag.waits)).toBe(10_000);
  });

  test("an answered create journaled against another API (a throwaway emulator, gone with its stack): created at once, nothing waited for", async () => {
    // The routing test's throwaway stacks: the same project, stack and resource names on a new emulator each run.
    await journal.done(intent({ api: "http://127.0.0.1:41069" }), "PGONE");
    answer("POST", "/services", { service: service("PNEW") }, 201);
    await expect(services.create!(inputs)).resolves.toMatchObject({ id: "PNEW" });
    expect(api.calls.map((c) => `${c.method} ${c.path}`)).toEqual(["POST /services"]);
    expect(lag.waits).toEqual([]);
    // The entry now names this API.
    expect(journal.load(ORIGIN)).toMatchObject({ id: "PNEW", api: API });
  });

  test("one journaled against this API (or by a version that did not record it) whose object answers 404 is waited for through the window", async () => {
    api
      .pool()
      .intercept({ method: "GET", path: "/services/PGONE" })
      .reply(404, { error: { message: "Not Found", code: 2100 } })
      .persist();
    for (const sentTo of [API, undefined]) {
      await journal.done(intent({ api: sentTo, sentAt: lag.consistency.now() }), "PGONE");
      answer("POST", "/services", { service: service("PNEW") }, 201);
      const before = lag.waits.length;
      await expect(services.create!(inputs)).resolves.toMatchObject({ id: "PNEW" });
      expect(lag.waits.slice(before).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(119_000);
    }
  });

  test("an integration of a service made moments ago: its create's 404 is asked again, nothing is made twice", async () => {
    lag.consistency.created("Service", "PSVC");
    answer("POST", "/services/PSVC/integrations", { error: { message: "Not Found", code: 2100 } }, 404);
    answer("POST", "/services/PSVC/integrations", { error: { message: "Not Found", code: 2100 } }, 404);
    answer(
      "POST",
      "/services/PSVC/integrations",
      { integration: { id: "PI1", type: "events_api_v2_inbound_integration", name: "events", service: { id: "PSVC" } } },
      201,
    );
    await expect(integrations.create!({ service: "PSVC", type: "events_api_v2_inbound_integration", name: "events", __origin: ORIGIN })).resolves.toMatchObject(
      { id: "PI1" },
    );
    expect(lag.waits).toEqual([250, 500]);
  });

  test("an integration of a service this deployment did not make: two second looks, then a 404 that says which account was asked", async () => {
    for (let look = 0; look < 3; look++) answer("POST", "/services/PELSEWHERE/integrations", { error: { message: "Not Found", code: 2100 } }, 404);
    const err = await integrations.create!({ service: "PELSEWHERE", type: "events_api_v2_inbound_integration", __origin: ORIGIN }).catch((e: Error) => e);
    expect(String(err)).toMatch(
      /404.*service PELSEWHERE is not in the default account, the account this resource names\. If the service lives in another account, give this resource that account too/,
    );
    expect(lag.waits).toEqual([1000, 2000]);
  });

  test("a service made moments ago whose status change answers 404 at first: the change is asked again", async () => {
    answer("POST", "/services", { service: service("PNEW") }, 201);
    answer("PUT", "/services/PNEW", { error: { message: "Not Found", code: 2100 } }, 404);
    answer("PUT", "/services/PNEW", { service: { ...service("PNEW"), status: "disabled" } });
    await expect(services.create!({ ...inputs, status: "disabled" })).resolves.toMatchObject({ id: "PNEW", outs: { status: "disabled" } });
    expect(lag.waits).toEqual([250]);
  });

  test("a refresh of a service made seconds ago (its createdAt) waits out its 404s; it is not dropped", async () => {
    const made = new Date(Date.now() - 3_000).toISOString();
    answer("GET", "/services/PNEW", { error: { message: "Not Found", code: 2100 } }, 404);
    answer("GET", "/services/PNEW", { error: { message: "Not Found", code: 2100 } }, 404);
    answer("GET", "/services/PNEW", { service: { ...service("PNEW"), created_at: made } });
    await expect(services.read!("PNEW", { name: "Checkout", createdAt: made })).resolves.toMatchObject({ id: "PNEW" });
    expect(lag.waits).toEqual([250, 500]);
  });

  test("the holder of a taken name is looked for until the listing shows it", async () => {
    state.deployment.resources = [held("PTAKEN", "other")];
    answer("POST", "/services", { error: { message: "Name has already been taken", code: 2001, errors: ["Name has already been taken"] } }, 400);
    answer("GET", "/services", { services: [], more: false });
    answer("GET", "/services", { services: [service("PTAKEN")], more: false });
    await expect(services.create!(inputs)).rejects.toThrow(/the name is taken by service PTAKEN, which resource .*::other of this stack manages/);
  });
});
