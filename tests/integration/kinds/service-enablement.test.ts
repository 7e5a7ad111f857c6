// ServiceEnablement against the emulator, driven as the engine drives it: what its lifecycle row does
// not show. The API's warning that the account is not entitled to the feature becomes a warning the
// engine prints, and the write succeeds; a replacement restores the old service to the value found
// before the first write, even when that service was changed by hand since.
import { admin } from "../../emulator/helpers";
import { envOf, expectStatus } from "../lifecycle/env";
import { useStage } from "../lifecycle/stage";

const stage = useStage();

const aiops = async (service: string) =>
  (await expectStatus(stage().api.get(`/services/${service}/enablements`), 200, "GET enablements")).enablements.find(
    (e: { feature: string }) => e.feature === "aiops",
  ).enabled as boolean;
const setByHand = (service: string, enabled: boolean) =>
  expectStatus(stage().api.put(`/services/${service}/enablements/aiops`, { enablement: { enabled } }), 200, "PUT enablement");

test("an account not entitled to the feature: the update succeeds, with the API's warning as the provider's", async () => {
  const { emu, engine } = stage();
  const service = await envOf(stage(), "entitled").service();
  const made = await engine.create("ServiceEnablement", "aiops", { service, feature: "aiops", enabled: false });
  const account = emu.seed.account.subdomain;
  expect((await admin(emu, "PUT", `/accounts/${account}`, { aiopsEntitled: false })).status).toBe(200);
  try {
    await engine.update(made, await engine.plan(made, { service, feature: "aiops", enabled: true }));
  } finally {
    expect((await admin(emu, "PUT", `/accounts/${account}`, { aiopsEntitled: true })).status).toBe(200);
  }
  expect(stage().warnings.filter((w) => w.includes(service))).toEqual([
    expect.stringMatching(new RegExp(`^pagerduty:ServiceEnablement ${service}/aiops: The account is not entitled to "aiops"`)),
  ]);
  expect(await aiops(service)).toBe(true);
});

test("a new service replaces it: the new one is set, and the old one gets back the value found before, though changed by hand since", async () => {
  const { engine } = stage();
  const env = envOf(stage(), "replaced");
  const [pre, own] = [await env.service(), await env.service()];
  await setByHand(pre, false);
  const made = await engine.create("ServiceEnablement", "aiops", { service: pre, feature: "aiops", enabled: true });
  await setByHand(pre, true);
  const next = { service: own, feature: "aiops", enabled: false };
  const plan = await engine.plan(made, next);
  expect(plan.diff.replaces).toEqual(["service"]);
  const replaced = await engine.replace(made, next, plan);
  expect(replaced.outs).toMatchObject({ previousEnabled: true, enabled: false });
  expect(await aiops(own)).toBe(false);
  expect(await aiops(pre)).toBe(false);
});
