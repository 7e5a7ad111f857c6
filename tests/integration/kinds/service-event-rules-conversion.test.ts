// ServiceEventRulesConversion against the emulator, driven as the engine drives it: what its
// lifecycle row does not show. After the conversion the service's event rules are read-only: the
// API refuses rule writes, the rule resources of the program fail naming the conversion, and their
// destroy (and the conversion's) only forgets them, with a warning each.
import { envOf, expectStatus } from "../lifecycle/env";
import { useStage } from "../lifecycle/stage";

const stage = useStage();

const rule = (service: string, position: number) => ({ service, position, disabled: false, actions: { severity: { value: "critical" } } });
/** A rule write on the service through the REST API: 409 once its rules were converted. */
const ruleWrite = async (service: string) => (await stage().api.post(`/services/${service}/rules`, { rule: { disabled: true } })).status;

test("a converted service's rules are read-only: the API refuses writes, the rule resources fail naming the conversion, and destroy only forgets them", async () => {
  const { engine } = stage();
  const env = envOf(stage(), "converted");
  const [svc, other] = [await env.service(), await env.service()];
  const rules = await Promise.all([0, 1].map((p) => engine.create("ServiceEventRule", `rule${p}`, rule(svc, p))));
  const conversion = await engine.create("ServiceEventRulesConversion", "convert", { service: svc });
  expect(conversion.outs).toMatchObject({ service: svc, convertStatus: "completed", convertedTo: expect.any(String) });
  expect(await ruleWrite(svc)).toBe(409);
  expect(await ruleWrite(other)).toBe(201);

  const readOnly = new RegExp(`event rules of service ${svc} are read-only: they were converted to event orchestration rules .*rules/convert`);
  const plan = await engine.plan(rules[0], { ...rule(svc, 0), disabled: true });
  await expect(engine.update(rules[0], plan)).rejects.toThrow(readOnly);
  await expect(engine.create("ServiceEventRule", "late", rule(svc, 2))).rejects.toThrow(readOnly);

  // Destroy: the rules and the conversion leave the state; the service keeps its converted rules.
  for (const r of [...rules, conversion]) await engine.delete(r);
  const { rules: left } = await expectStatus(stage().api.get(`/services/${svc}/rules`), 200, "GET rules");
  expect(left.map((r: { id: string }) => r.id).sort()).toEqual(rules.map((r) => r.id).sort());
  const warnings = stage().warnings.filter((w) => w.includes(svc));
  for (const r of rules) expect(warnings).toContainEqual(expect.stringContaining(`event rule ${r.id} of service ${svc} was NOT deleted`));
  expect(warnings).toContainEqual(expect.stringMatching(new RegExp(`the conversion of service ${svc}'s event rules .* cannot be undone`)));
});
