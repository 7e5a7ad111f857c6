// ServiceCustomField against the emulator, driven as the engine drives it: what its lifecycle row
// does not show. A field and its value on a service in one program: the preview judges the value by
// the field's declaration (the field does not exist yet), and an update of the field keeps the ids
// of the options it keeps and the value on the service.
import type { Deployed } from "../lifecycle/engine";
import { envOf, expectStatus } from "../lifecycle/env";
import { useStage } from "../lifecycle/stage";

const stage = useStage();

const field = (name: string, displayName: string, options: string[]) => ({
  name,
  displayName,
  description: "Where the service runs",
  dataType: "string",
  fieldType: "single_value_fixed",
  fieldOptions: options,
});
let name: string;
let service: string;
let made: Deployed;

const liveField = async (id: string) =>
  (await expectStatus(stage().api.get(`/services/custom_fields/${id}?include[]=field_options`), 200, "GET field")).field as {
    display_name: string;
    field_options: { id: string; data: { value: string } }[];
  };
const valueOn = async (svc: string) =>
  (await expectStatus(stage().api.get(`/services/${svc}/custom_fields/values`), 200, "GET values")).custom_fields.find((f: { name: string }) => f.name === name)
    ?.value;

test("a preview judges values by the declaration of a field the program makes; then the field and its value are made in one deployment", async () => {
  const { engine } = stage();
  const env = envOf(stage(), "field");
  name = env.unique("environment");
  service = await env.service();
  // The preview: every resource is checked before anything is made.
  await engine.check("ServiceCustomField", "environment", {}, field(name, "Environment", ["prod", "staging"]));
  await expect(engine.check("ServiceCustomFieldValues", "values", {}, { service, values: { [name]: "qa" } })).rejects.toThrow(
    `values.${name}: must be one of the field's options "prod", "staging"; got "qa"`,
  );
  await engine.check("ServiceCustomFieldValues", "values", {}, { service, values: { [name]: "prod" } });
  // The `up`: the values depend on the field.
  made = await engine.create("ServiceCustomField", "environment", field(name, "Environment", ["prod", "staging"]));
  await engine.create("ServiceCustomFieldValues", "values", { service, values: { [name]: "prod" } });
  expect(await valueOn(service)).toBe("prod");
});

test("display name and options update in place: the options kept keep their ids, and the value stays on the service", async () => {
  const { engine } = stage();
  const before = await liveField(made.id);
  const next = field(name, "Env", ["staging", "prod", "dev"]);
  const plan = await engine.plan(made, next);
  expect(plan.diff).toMatchObject({ changes: true, replaces: [] });
  const updated = await engine.update(made, plan);
  const after = await liveField(made.id);
  expect(after.display_name).toBe("Env");
  const idOf = (f: typeof before, v: string) => f.field_options.find((o) => o.data.value === v)?.id;
  expect(after.field_options.map((o) => o.data.value).sort()).toEqual(["dev", "prod", "staging"]);
  expect([idOf(after, "prod"), idOf(after, "staging")]).toEqual([idOf(before, "prod"), idOf(before, "staging")]);
  expect(await valueOn(service)).toBe("prod");
  expect((await engine.plan((await engine.refresh(updated))!, next)).diff).toMatchObject({ changes: false });
});
