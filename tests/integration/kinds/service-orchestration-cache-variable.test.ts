// ServiceOrchestrationCacheVariable against the emulator, driven as the engine drives it: what its
// lifecycle row does not show. A variable and the orchestration rule that reads it
// (`cache_var.<name>`, the variable's output), as one program declares them; a rename updates both.
// The API accepts a rule reading a variable the orchestration does not have, with a warning the
// provider passes on: none while the rule follows the variable.
import { envOf, expectStatus } from "../lifecycle/env";
import { useStage } from "../lifecycle/stage";

const stage = useStage();

test("an orchestration rule reads the variable by its name, with no warning; a rename updates the variable and the rule in place", async () => {
  const { engine, api } = stage();
  const service = await envOf(stage(), "cache").service();
  const variable = (name: string) => ({
    service,
    name,
    conditions: [{ expression: "event.summary matches part 'database'" }],
    configuration: { type: "trigger_event_count", ttlSeconds: 60 },
  });
  const reader = (name: unknown) => ({
    service,
    sets: [{ id: "start", rules: [{ label: "many db triggers", conditions: [{ expression: `cache_var.${name} >= 5` }], actions: { severity: "critical" } }] }],
  });
  const missing = () => stage().warnings.filter((w) => w.includes(service) && w.includes("has no cache variable"));
  const firstRule = async () =>
    (await expectStatus(api.get(`/event_orchestrations/services/${service}`), 200, "GET orchestration")).orchestration_path.sets[0].rules[0];

  // `dependsOn: [counter]`, and the expression built from its `name` output.
  const counter = await engine.create("ServiceOrchestrationCacheVariable", "counter", variable("db_triggers"));
  const orch = await engine.create("ServiceOrchestration", "orch", reader(counter.outs.name));
  expect((await firstRule()).conditions).toEqual([{ expression: "cache_var.db_triggers >= 5" }]);

  const renamed = await engine.update(counter, await engine.plan(counter, variable("database_triggers")));
  expect(renamed.id).toBe(counter.id);
  const plan = await engine.plan(orch, reader(renamed.outs.name));
  expect(plan.diff).toMatchObject({ changes: true, replaces: [] });
  const following = await engine.update(orch, plan);
  expect((await firstRule()).conditions).toEqual([{ expression: "cache_var.database_triggers >= 5" }]);
  const live = await expectStatus(api.get(`/event_orchestrations/services/${service}/cache_variables/${counter.id}`), 200, "GET cache variable");
  expect(live.cache_variable).toMatchObject({ name: "database_triggers" });
  expect(missing()).toEqual([]);

  // A rule left reading the old name reads nothing: the API says so, and so does the provider.
  const stale = await engine.plan(following, reader("db_triggers"));
  expect(stale.diff).toMatchObject({ changes: true });
  await engine.update(following, stale);
  expect(missing()).toEqual([expect.stringContaining('the orchestration has no cache variable "db_triggers"')]);
});
