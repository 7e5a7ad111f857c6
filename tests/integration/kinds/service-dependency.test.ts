// ServiceDependency against the emulator, driven as the engine drives it: what its lifecycle row
// does not show. A business service as one side: listed under the business service, and gone from
// there after delete.
import { envOf, expectStatus } from "../lifecycle/env";
import { useStage } from "../lifecycle/stage";

const stage = useStage();

test("a technical service supporting a business service: associated, no diff after a refresh, disassociated by delete", async () => {
  const { engine, api } = stage();
  const env = envOf(stage(), "business");
  const business = (await expectStatus(api.post("/business_services", { business_service: { name: env.unique("checkout") } }), 200, "POST business service"))
    .business_service.id;
  const web = await env.service();
  const declared = { supportingService: { id: web }, dependentService: { id: business, type: "business_service" } };
  const relationships = async () =>
    (await expectStatus(api.get(`/service_dependencies/business_services/${business}`), 200, "GET dependencies")).relationships as Record<string, any>[];

  const made = await engine.create("ServiceDependency", "biz", declared);
  expect(await relationships()).toEqual([
    expect.objectContaining({
      id: made.id,
      supporting_service: expect.objectContaining({ id: web }),
      dependent_service: expect.objectContaining({ id: business }),
    }),
  ]);
  expect((await engine.plan((await engine.refresh(made))!, declared)).diff).toMatchObject({ changes: false });
  await engine.delete(made);
  expect(await relationships()).toEqual([]);
});
