// Faults with `after`: they act once the request was carried out, as a reply lost on its way back
// looks to a client. The change must be there whatever the client saw.
import { admin, bearer, type Client, type Emu, serviceBody, start } from "./helpers";

let e: Emu;
let api: Client;
beforeAll(async () => {
  e = await start();
});
afterAll(() => e.close());
beforeEach(async () => {
  await admin(e, "POST", "/reset");
  api = await bearer(e);
});

const named = async (name: string) => (await api.get(`/services?name=${encodeURIComponent(name)}`)).json.services as Array<{ id: string }>;

test("a dropped reply after the change: the client sees a network error, the service exists", async () => {
  await admin(e, "POST", "/faults", { route: "POST /services", drop: true, after: true, count: 1 });
  const body = serviceBody(e);
  await expect(api.post("/services", body)).rejects.toThrow();
  expect(await named(body.service.name)).toHaveLength(1);
  const stats = (await admin(e, "GET", "/stats")).json;
  expect(stats.byRoute["POST /services"]).toEqual({ dropped: 1 });
  expect(stats.faultsInjected).toBe(1);
  // The fault was used up: the next create is answered normally.
  expect((await api.post("/services", serviceBody(e))).status).toBe(201);
});

test("a before-fault (the default) drops the request without carrying it out", async () => {
  await admin(e, "POST", "/faults", { route: "POST /services", drop: true, count: 1 });
  const body = serviceBody(e);
  await expect(api.post("/services", body)).rejects.toThrow();
  expect(await named(body.service.name)).toHaveLength(0);
});

test("an error status after the change: 5xx to the client, the change is made", async () => {
  await admin(e, "POST", "/faults", { route: "POST /services", status: 502, after: true, count: 1 });
  const body = serviceBody(e);
  const res = await api.post("/services", body);
  expect(res.status).toBe(502);
  expect(res.json.error.message).toEqual(expect.any(String));
  expect(await named(body.service.name)).toHaveLength(1);
});

test("latency after the change: the change is made and visible to others; the late reply names the same service", async () => {
  await admin(e, "POST", "/faults", { route: "POST /services", latencyMs: 400, after: true, count: 1 });
  const body = serviceBody(e);
  const pending = api.post("/services", body);
  let seen: Array<{ id: string }> = [];
  for (let i = 0; i < 50 && !seen.length; i++) {
    await new Promise((r) => setTimeout(r, 20));
    seen = await named(body.service.name);
  }
  expect(seen).toHaveLength(1);
  const res = await pending;
  expect(res.status).toBe(201);
  expect(res.json.service.id).toBe(seen[0].id);
});

test('"after" must be a boolean', async () => {
  const res = await admin(e, "POST", "/faults", { route: "*", drop: true, after: "yes" });
  expect(res.status).toBe(400);
  expect(res.json.error.errors).toContain('"after" must be a boolean');
  expect((await admin(e, "POST", "/faults", { route: "*", latencyMs: 1, after: true })).json.fault.after).toBe(true);
});
