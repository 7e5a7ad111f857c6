// What clients call around services: abilities, the vendor catalogue (and integrations created by
// vendor), priorities and the current user, with the API's envelopes, pagination, scopes and errors.
import { bearer, client, createService, type Emu, euClient, type Registry, registry, start, startWithClient, type Client } from "./helpers";

let e: Emu;
let api: Client;
let reg: Registry;

beforeAll(async () => {
  ({ e, api } = await startWithClient());
  reg = await registry(e);
});
afterAll(() => e.close());

const key = (pred: (k: Registry["apiKeys"][number]) => boolean) => client(e, `Token token=${reg.apiKeys.find(pred)!.token}`);

test("GET /abilities lists the account's abilities; /abilities/{id} is 204 when present, 404 otherwise", async () => {
  const res = await api.get("/abilities");
  expect(res.status).toBe(200);
  expect(Object.keys(res.json)).toEqual(["abilities"]);
  expect(res.json.abilities).toEqual(expect.arrayContaining(["teams", "custom_fields", "event_intelligence"]));
  const has = await api.get("/abilities/teams");
  expect(has.status).toBe(204);
  expect(has.text).toBe("");
  const missing = await api.get("/abilities/time_travel");
  expect(missing.status).toBe(404);
  expect(missing.json.error).toMatchObject({ code: 2100, errors: ["Ability time_travel not found"] });
});

test("abilities follow the account: without the AIOps entitlement there is no event_intelligence", async () => {
  const globex = euClient(e, `Token token=${reg.apiKeys.find((k) => k.account === "globex")!.token}`);
  expect((await globex.get("/abilities")).json.abilities).not.toContain("event_intelligence");
  expect((await globex.get("/abilities/event_intelligence")).status).toBe(404);
});

test("each endpoint needs its scope (x-pd-requires-scope); 401 without credentials", async () => {
  const narrow = await bearer(e, "services.read");
  for (const [path, scope] of [
    ["/abilities", "abilities.read"],
    ["/abilities/teams", "abilities.read"],
    ["/vendors", "vendors.read"],
    ["/vendors/PZQ6AUS", "vendors.read"],
    ["/priorities", "priorities.read"],
  ]) {
    const res = await narrow.get(path);
    expect({ path, status: res.status, required: res.json?.error?.required_scopes }).toEqual({ path, status: 403, required: [scope] });
    expect((await client(e, "Bearer nope").get(path)).status).toBe(401);
  }
});

test("GET /vendors: the catalogue with offset pagination, total on request and a query filter", async () => {
  const all = await api.get("/vendors?limit=100&total=true");
  expect(all.status).toBe(200);
  expect(all.json).toMatchObject({ limit: 100, offset: 0, more: false });
  expect(all.json.total).toBe(all.json.vendors.length);
  const names: string[] = all.json.vendors.map((v: { name: string }) => v.name);
  expect(names).toEqual(expect.arrayContaining(["Amazon CloudWatch", "Datadog", "Prometheus", "Events API V2", "Email"]));
  expect([...names].sort()).toEqual(names);
  const first = await api.get("/vendors?limit=5");
  expect(first.json).toMatchObject({ limit: 5, offset: 0, more: true, total: null });
  const second = await api.get("/vendors?limit=5&offset=5");
  expect(second.json.vendors.map((v: { name: string }) => v.name)).toEqual(names.slice(5, 10));
  const found = await api.get("/vendors?query=cloudwatch");
  expect(found.json.vendors.map((v: { id: string }) => v.id)).toEqual(["PZQ6AUS"]);
  expect(found.json.vendors[0]).toMatchObject({ type: "vendor", summary: "Amazon CloudWatch", self: `${e.url}/vendors/PZQ6AUS` });
  expect((await api.get("/vendors?limit=x")).status).toBe(400);
});

test("GET /vendors/{id}: the vendor, or 404", async () => {
  const res = await api.get("/vendors/PZQ6AUS");
  expect(res.status).toBe(200);
  expect(res.json.vendor).toMatchObject({ id: "PZQ6AUS", type: "vendor", name: "Amazon CloudWatch" });
  expect((await api.get("/vendors/PNOPE00")).status).toBe(404);
});

test("integrations created by vendor get the vendor's type and name; an unknown vendor is a 400 naming the field", async () => {
  const sid = await createService(e, api);
  const cw = await api.post(`/services/${sid}/integrations`, { integration: { vendor: { id: "PZQ6AUS", type: "vendor_reference" } } });
  expect(cw.status).toBe(201);
  expect(cw.json.integration).toMatchObject({
    type: "aws_cloudwatch_inbound_integration",
    name: "Amazon CloudWatch",
    vendor: { id: "PZQ6AUS", type: "vendor_reference", summary: "Amazon CloudWatch" },
  });
  expect(cw.json.integration.integration_key).toMatch(/^[a-z0-9]{32}$/);
  const dd = await api.post(`/services/${sid}/integrations`, { integration: { vendor: { id: "PAM4FGS" }, name: "DD" } });
  expect(dd.json.integration).toMatchObject({ type: "events_api_v2_inbound_integration", name: "DD", vendor: { id: "PAM4FGS" } });
  const bad = await api.post(`/services/${sid}/integrations`, { integration: { vendor: { id: "PNOPE00" } } });
  expect(bad.status).toBe(400);
  expect(bad.json.error.errors.join()).toMatch(/"vendor.id" PNOPE00 is not a vendor/);
  const badWithType = await api.post(`/services/${sid}/integrations`, {
    integration: { type: "events_api_v2_inbound_integration", vendor: { id: "PNOPE00" } },
  });
  expect(badWithType.status).toBe(400);
});

test("GET /priorities: P1..P5 most severe first, with stable ids per account, paginated", async () => {
  const res = await api.get("/priorities");
  expect(res.status).toBe(200);
  expect(res.json.priorities.map((p: { name: string }) => p.name)).toEqual(["P1", "P2", "P3", "P4", "P5"]);
  expect(res.json.priorities[0]).toMatchObject({ type: "priority", summary: "P1", self: `${e.url}/priorities/${res.json.priorities[0].id}` });
  expect(res.json).toMatchObject({ limit: 25, offset: 0, more: false });
  expect((await api.get("/priorities")).json.priorities).toEqual(res.json.priorities);
  const page = await api.get("/priorities?limit=2&offset=2");
  expect(page.json.priorities.map((p: { name: string }) => p.name)).toEqual(["P3", "P4"]);
  expect(page.json.more).toBe(true);
  const globex = await euClient(e, `Token token=${reg.apiKeys.find((k) => k.account === "globex")!.token}`).get("/priorities");
  expect(globex.status).toBe(200);
  expect(globex.json.priorities.map((p: { id: string }) => p.id)).not.toContain(res.json.priorities[0].id);
});

test("GET /users/me: the user of a user credential; 400 for account keys and app tokens; 401 without credentials", async () => {
  const uma = reg.users.find((u) => u.email === "user@acme.example")!;
  const me = await key((k) => k.kind === "user").get("/users/me");
  expect(me.status).toBe(200);
  expect(me.json.user).toMatchObject({ id: uma.id, type: "user", email: "user@acme.example", name: "Uma User", role: "user" });
  for (const c of [key((k) => k.kind === "account" && k.account === "acme"), api]) {
    const res = await c.get("/users/me");
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe(2001);
    expect(res.json.error.errors[0]).toMatch(/needs a user's credential/);
  }
  expect((await client(e, "Token token=nope").get("/users/me")).status).toBe(401);
});

test("a fresh emulator on another start serves the same vendor ids (the catalogue is global)", async () => {
  const other = await start();
  try {
    const res = await (await bearer(other)).get("/vendors/PZQ6AUS");
    expect(res.json.vendor.name).toBe("Amazon CloudWatch");
  } finally {
    await other.close();
  }
});
