import { resource, sideType } from "../../../../provider/resources/service-dependency";
import { offline, reply, replyGone, useApi } from "../../support/resource-api";

const api = useApi();
const provider = api.provider(resource);
const declared = { supportingService: { id: "PSUP", type: "service" }, dependentService: { id: "PDEP", type: "service" } };
const rel = (id = "D1") => ({
  id,
  type: "service_dependency",
  supporting_service: { id: "PSUP", type: "technical_service_reference" },
  dependent_service: { id: "PDEP", type: "technical_service_reference" },
});
const LIST = "/service_dependencies/technical_services/PDEP";

describe("check", () => {
  const check = (news: Record<string, unknown>) => offline(resource).check!({}, { ...declared, ...news });
  test("a side defaults to a technical service; a business service needs its type", async () => {
    const r = await check({ dependentService: { id: "PBIZ", type: "business_service" } });
    expect(r.failures).toBeUndefined();
    expect((await check({ supportingService: { id: "PSUP" } })).inputs?.supportingService).toEqual({ id: "PSUP", type: "service" });
  });
  test("names the field", async () => {
    expect((await check({ dependentService: { id: "PSUP" } })).failures?.[0].reason).toMatch(/^dependentService\.id: must differ/);
    expect((await check({ supportingService: { id: "PSUP", type: "team" } })).failures?.[0].reason).toMatch(/^supportingService\.type: /);
  });
});

test("both sides replace", async () => {
  const olds = { supportingService: { id: "PSUP", type: "service" }, dependentService: { id: "PDEP", type: "service" } };
  await expect(offline(resource).diff!("D1", olds, declared)).resolves.toMatchObject({ changes: false });
  await expect(offline(resource).diff!("D1", olds, { ...declared, supportingService: { id: "POTHER", type: "service" } })).resolves.toMatchObject({
    replaces: ["supportingService"],
  });
});

test("the API's reference types read as the program's", () => {
  expect(sideType("technical_service_reference")).toBe("service");
  expect(sideType("business_service_reference")).toBe("business_service");
});

test("create associates and takes the relationship's id", async () => {
  reply(api, "POST", "/service_dependencies/associate", { relationships: [rel()] });
  const r = await provider.create!({ ...declared });
  expect(api.calls[0].body).toEqual({
    relationships: [{ supporting_service: { id: "PSUP", type: "service" }, dependent_service: { id: "PDEP", type: "service" } }],
  });
  expect(r).toMatchObject({ id: "D1", outs: declared });
});

test("read finds it among the dependent's dependencies; not listed a while after create is waited out", async () => {
  reply(api, "POST", "/service_dependencies/associate", { relationships: [rel()] });
  const made = await provider.create!({ ...declared });
  reply(api, "GET", LIST, { relationships: [] });
  reply(api, "GET", LIST, { relationships: [rel("OTHER"), rel()] });
  await expect(provider.read!("D1", made.outs)).resolves.toMatchObject({ id: "D1", props: declared });
});

test("read: no longer listed (or the service gone) means gone", async () => {
  for (let look = 0; look < 3; look++) reply(api, "GET", LIST, { relationships: [] });
  await expect(provider.read!("D1", { ...declared })).resolves.toMatchObject({ id: "" });
  replyGone(api, "GET", LIST);
  await expect(provider.read!("D1", { ...declared })).resolves.toMatchObject({ id: "" });
});

test("delete disassociates the pair; 404 means done", async () => {
  reply(api, "POST", "/service_dependencies/disassociate", { relationships: [rel()] });
  await provider.delete!("D1", { ...declared });
  expect(api.calls[0].body.relationships[0]).toEqual({ supporting_service: declared.supportingService, dependent_service: declared.dependentService });
  replyGone(api, "POST", "/service_dependencies/disassociate");
  await expect(provider.delete!("D1", { ...declared })).resolves.toBeUndefined();
});
