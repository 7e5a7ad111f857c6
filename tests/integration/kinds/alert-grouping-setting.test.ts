// AlertGroupingSetting against the emulator, driven as the engine drives it: what its lifecycle row
// does not show. The migration from a service's own alertGroupingParameters
// (docs/alert-grouping-and-dependencies.md): the setting is added and the parameters dropped from the
// program in one deployment, which writes nothing to the service, so it groups all along.
import { envOf, expectStatus } from "../lifecycle/env";
import { useStage } from "../lifecycle/stage";

const stage = useStage();

test("migration: the setting is created, the service's parameters dropped from the program with no write to it; the service groups all along", async () => {
  const { engine, emu } = stage();
  const name = envOf(stage(), "grouping").unique("grouped");
  const service = { name, escalationPolicy: emu.seed.escalationPolicyId };
  const config = { aggregate: "all", fields: ["summary"], timeWindow: 300 } as const;
  const grouping = async (id: string) =>
    (await expectStatus(stage().api.get(`/services/${id}`), 200, "GET service")).service.alert_grouping_parameters as Record<string, unknown>;

  const svc = await engine.create("Service", "svc", { ...service, alertGroupingParameters: { type: "content_based", config } });
  expect(await grouping(svc.id)).toMatchObject({ type: "content_based" });

  // The next deployment: the service without its parameters (no change planned), and the setting over it.
  expect((await engine.plan(svc, service)).diff).toMatchObject({ changes: false });
  const setting = await engine.create("AlertGroupingSetting", "grouping", { name, type: "content_based", config, services: [svc.id] });
  expect(await grouping(svc.id)).toMatchObject({ id: setting.id, type: "alert_grouping_setting_reference" });
  const live = await expectStatus(stage().api.get(`/alert_grouping_settings/${setting.id}`), 200, "GET setting");
  expect(live.alert_grouping_setting).toMatchObject({ type: "content_based", services: [{ id: svc.id }] });
  // And after a refresh, neither plans a change.
  expect((await engine.plan((await engine.refresh(svc))!, service)).diff).toMatchObject({ changes: false });
  expect((await engine.plan((await engine.refresh(setting))!, { name, type: "content_based", config, services: [svc.id] })).diff).toMatchObject({
    changes: false,
  });
});
