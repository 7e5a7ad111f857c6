// Service dependencies and business services (issue 36): what PagerDuty's Terraform provider sends
// (`service` / `business_service` sides, the `*_reference` forms back) and reads (the dependent's
// list), one relationship per pair, 404s, loops, lag, and what a deleted service takes with it.
import { admin, bearer, type Client, client, createService, type Emu, start } from "./helpers";

let e: Emu;
let api: Client;
beforeAll(async () => {
  e = await start({ rateLimit: 1_000_000 });
  api = client(e, `Token token=${e.seed.apiKey}`);
});
afterAll(() => e.close());
beforeEach(async () => expect((await admin(e, "POST", "/reset")).status).toBe(200));

const rel = (sup: string, dep: string, supType = "service", depType = "service") => ({
  relationships: [{ supporting_service: { id: sup, type: supType }, dependent_service: { id: dep, type: depType } }],
});
const listOf = async (id: string, kind = "technical_services") => (await api.get(`/service_dependencies/${kind}/${id}`)).json.relationships;

test("associate, read from either side, associate again (same relationship), disassociate", async () => {
  const [a, b] = [await createService(e, api), await createService(e, api)];
  const made = await api.post("/service_dependencies/associate", rel(a, b));
  expect(made.status).toBe(200);
  const r = made.json.relationships[0];
  expect(r).toMatchObject({
    type: "service_dependency",
    supporting_service: { id: a, type: "technical_service_reference" },
    dependent_service: { id: b, type: "technical_service_reference" },
  });
  expect(await listOf(b)).toEqual([r]);
  expect(await listOf(a)).toEqual([r]);
  expect((await api.post("/service_dependencies/associate", rel(a, b))).json.relationships[0].id).toBe(r.id);
  // The reply's reference forms are accepted back (the Terraform provider converts, others may not).
  const gone = await api.post("/service_dependencies/disassociate", rel(a, b, "technical_service_reference", "technical_service_reference"));
  expect(gone.status).toBe(200);
  expect(await listOf(b)).toEqual([]);
  expect((await api.post("/service_dependencies/disassociate", rel(a, b))).status).toBe(404);
});

test("business services as either side", async () => {
  const s = await createService(e, api);
  const made = await api.post("/business_services", { business_service: { name: "Checkout" } });
  expect(made.status).toBe(200);
  const biz = made.json.business_service.id;
  const r = (await api.post("/service_dependencies/associate", rel(s, biz, "service", "business_service"))).json.relationships[0];
  expect(r.dependent_service).toEqual({ id: biz, type: "business_service_reference" });
  expect(await listOf(biz, "business_services")).toEqual([r]);
  expect((await api.delete(`/business_services/${biz}`)).status).toBe(204);
  expect(await listOf(s)).toEqual([]);
});

test("validation: unknown sides 404, bad types and loops 400 naming the item, scopes", async () => {
  const [a, b, c] = [await createService(e, api), await createService(e, api), await createService(e, api)];
  expect((await api.post("/service_dependencies/associate", rel(a, "PNOPE00"))).status).toBe(404);
  const badType = await api.post("/service_dependencies/associate", rel(a, b, "team"));
  expect(badType.status).toBe(400);
  expect(badType.json.error.errors).toEqual([expect.stringContaining('"relationships[0].supporting_service.type" must be one of')]);
  expect((await api.post("/service_dependencies/associate", rel(a, a))).json.error.errors).toEqual([expect.stringContaining("cannot depend on itself")]);
  await api.post("/service_dependencies/associate", rel(a, b));
  await api.post("/service_dependencies/associate", rel(b, c));
  const loop = await api.post("/service_dependencies/associate", rel(c, a));
  expect(loop.status).toBe(400);
  expect(loop.json.error.errors).toEqual([expect.stringContaining("would close a loop")]);
  expect((await api.post("/service_dependencies/associate", { relationships: [{ supporting_service: { id: a } }] })).status).toBe(400);
  const reader = await bearer(e, "services.read");
  expect((await reader.get(`/service_dependencies/technical_services/${a}`)).status).toBe(200);
  expect((await reader.post("/service_dependencies/associate", rel(a, c))).status).toBe(403);
  // A deleted service takes its relationships with it.
  expect((await api.delete(`/services/${b}`)).status).toBe(204);
  expect(await listOf(a)).toEqual([]);
  expect((await api.get(`/service_dependencies/technical_services/${b}`)).status).toBe(404);
});

test("lag: a new relationship is left out of the lists until its window ends", async () => {
  const [a, b] = [await createService(e, api), await createService(e, api)];
  await admin(e, "PUT", "/lag", { ms: 60_000 });
  expect((await api.post("/service_dependencies/associate", rel(a, b))).status).toBe(200);
  expect(await listOf(b)).toEqual([]);
  await admin(e, "POST", "/clock", { advanceMs: 61_000 });
  expect(await listOf(b)).toHaveLength(1);
});
