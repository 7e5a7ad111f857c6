// ServiceCustomFieldValues against the emulator, driven as the engine drives it: what its lifecycle
// row does not show. A field the program does not name is never its business; a field the account
// does not have fails the check (preview and up alike) before anything is written; after its service
// was deleted by hand, `up` makes the service and the values again.
import { envOf, expectStatus } from "../lifecycle/env";
import { useStage } from "../lifecycle/stage";

const stage = useStage();

const path = (service: string) => `/services/${service}/custom_fields/values`;
const values = async (service: string) =>
  Object.fromEntries(
    (await expectStatus(stage().api.get(path(service)), 200, "GET values")).custom_fields.map((f: { name: string; value: unknown }) => [f.name, f.value]),
  );
const setByHand = (service: string, v: Record<string, unknown>) =>
  expectStatus(stage().api.put(path(service), { custom_fields: Object.entries(v).map(([name, value]) => ({ name, value })) }), 201, "PUT values");

test("a field the program does not name changed by hand is never a diff", async () => {
  const { engine } = stage();
  const service = await envOf(stage(), "unnamed").service();
  await setByHand(service, { pci: true });
  const declared = { service, values: { tier: "gold" } };
  const made = await engine.create("ServiceCustomFieldValues", "fields", declared);
  await setByHand(service, { pci: false, runbook: "https://runbooks.example/by-hand" });
  const read = await engine.refresh(made);
  expect(read?.outs.values).toEqual({ tier: "gold" });
  expect((await engine.plan(read!, declared)).diff).toMatchObject({ changes: false });
  expect(await values(service)).toMatchObject({ tier: "gold", pci: false });
});

test("a field the account does not have fails the check naming it and the fields it has; nothing is written", async () => {
  const { engine } = stage();
  const service = await envOf(stage(), "unknown").service();
  const before = await values(service);
  const failure = /values\.colour: the account has no custom field named "colour" \(fields: [a-z_0-9, ]*tier/;
  // The preview's check, and the `up`'s (a create starts with it).
  await expect(engine.check("ServiceCustomFieldValues", "fields", {}, { service, values: { tier: "silver", colour: "red" } })).rejects.toThrow(failure);
  await expect(engine.create("ServiceCustomFieldValues", "fields", { service, values: { tier: "silver", colour: "red" } })).rejects.toThrow(failure);
  expect(await values(service)).toEqual(before);
});

test("after its service was deleted by hand, refresh drops both and up makes the service and the values again", async () => {
  const { engine, emu } = stage();
  const name = envOf(stage(), "again").unique("fields_own");
  const declaredService = { name, escalationPolicy: emu.seed.escalationPolicyId };
  const svc = await engine.create("Service", "own", declaredService);
  const made = await engine.create("ServiceCustomFieldValues", "fields", { service: svc.id, values: { tier: "gold", pci: true } });
  await expectStatus(stage().api.delete(`/services/${svc.id}`), 204, "DELETE service");
  // A refresh reads both at once; each 404 gets the second looks (3 s) before it is believed.
  expect(await Promise.all([engine.refresh(svc), engine.refresh(made)])).toEqual([undefined, undefined]);
  const again = await engine.create("Service", "own", declaredService);
  expect(again.id).not.toBe(svc.id);
  const values2 = await engine.create("ServiceCustomFieldValues", "fields", { service: again.id, values: { tier: "gold", pci: true } });
  expect(await values(again.id)).toMatchObject({ tier: "gold", pci: true });
  expect(values2.outs.previousValues).toEqual({ tier: null, pci: null });
}, 15_000);
