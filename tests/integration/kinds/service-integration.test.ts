// ServiceIntegration against the emulator, driven as the engine drives it: what its lifecycle row
// does not show. The email settings, the replacements by service and by vendor, and an email
// integration with a fixed address moving to another service.
import { envOf, expectStatus } from "../lifecycle/env";
import type { Env } from "../lifecycle/row";
import { useStage } from "../lifecycle/stage";

const stage = useStage();
const path = (service: unknown, id: string) => `/services/${service}/integrations/${id}`;
const live = async (service: unknown, id: string) => (await stage().api.get(path(service, id))).json?.integration;

const FILTERS = [{ subjectMode: "match", subjectRegex: "^ALERT", bodyMode: "always", fromEmailMode: "always" }] as const;

test("email settings are created and updated in place as declared; an email integration has no routing key", async () => {
  const { engine } = stage();
  const env = envOf(stage(), "email");
  const declared = {
    service: await env.service(),
    type: "generic_email_inbound_integration",
    name: "Inbox",
    emailIncidentCreation: "on_new_email_subject",
    emailFilterMode: "or-rules-email",
    emailFilters: FILTERS,
  };
  const made = await engine.create("ServiceIntegration", "mail", declared);
  // Left out of the outputs, not null: a secret output that is null would still be a secret.
  expect(made.outs).not.toHaveProperty("integrationKey");
  const created = await live(declared.service, made.id);
  expect(created).toMatchObject({ email_incident_creation: "on_new_email_subject", email_filter_mode: "or-rules-email" });
  expect(created.email_filters).toEqual([expect.objectContaining({ subject_mode: "match", subject_regex: "^ALERT", body_mode: "always" })]);
  expect(created.integration_key ?? null).toBeNull();

  const next = { ...declared, emailFilterMode: "and-rules-email" };
  const plan = await engine.plan(made, next);
  expect(plan.diff).toMatchObject({ changes: true, replaces: [] });
  const updated = await engine.update(made, plan);
  expect((await live(declared.service, made.id)).email_filter_mode).toBe("and-rules-email");
  expect((await engine.plan((await engine.refresh(updated))!, next)).diff).toMatchObject({ changes: false });
});

type Declared = Record<string, unknown>;
const CHANGES: Array<[string, (env: Env, d: Declared) => Promise<Declared>]> = [
  ["service", async (env, d) => ({ ...d, service: await env.service() })],
  // A vendor's integration takes its type from the vendor.
  ["vendor", async (_env, { type: _type, ...d }) => ({ ...d, vendor: "PAM4FGS" })],
];

test.each(CHANGES)("a new %s replaces the integration: the new one is made, the old one deleted", async (field, change) => {
  const { engine } = stage();
  const env = envOf(stage(), `by_${field}`);
  const declared = { service: await env.service(), type: "events_api_v2_inbound_integration", name: "Alerts" };
  const old = await engine.create("ServiceIntegration", "events", declared);
  const next = await change(env, declared);
  const plan = await engine.plan(old, next);
  expect(plan.diff.replaces).toContain(field);
  const made = await engine.replace(old, next, plan);
  expect(made.id).not.toBe(old.id);
  expect((await stage().api.get(path(old.outs.service, old.id))).status).toBe(404);
  expect(await live(next.service, made.id)).toMatchObject(field === "vendor" ? { vendor: { id: "PAM4FGS" } } : { service: { id: next.service } });
  expect((await engine.plan((await engine.refresh(made))!, next)).diff).toMatchObject({ changes: false });
});

test("a fixed address moving to another service: the old integration is deleted first, and the address never has two holders", async () => {
  const { engine, api, emu } = stage();
  const env = envOf(stage(), "move");
  const [from, to] = [await env.service(), await env.service()];
  const address = `inbox-move@${emu.seed.account.subdomain}.pagerduty.com`;
  const declared = { service: from, type: "generic_email_inbound_integration", name: "Inbox", integrationEmail: address };
  const before = await engine.create("ServiceIntegration", "mail", declared);
  const next = { ...declared, service: to };
  const plan = await engine.plan(before, next);
  // The engine then deletes the old one before it creates the new one (the replacement's check, with no old inputs, passes).
  expect(plan.diff).toMatchObject({ replaces: ["service"], deleteBeforeReplace: true });

  /** The services whose integrations hold the address, as mail sent to it would find them. */
  const holders = async () => {
    const found: string[] = [];
    for (const svc of [from, to]) {
      const listed = (await expectStatus(api.get(`/services/${svc}?include[]=integrations`), 200, "GET service")).service.integrations;
      if (listed.some((i: { integration_email?: string }) => i.integration_email === address)) found.push(svc);
    }
    return found;
  };
  const seen = [await holders()];
  expect(seen).toEqual([[from]]);
  let done = false;
  const replacing = engine.replace(before, next, plan).finally(() => (done = true));
  while (!done) seen.push(await holders());
  const after = await replacing;
  seen.push(await holders());
  expect(seen.filter((h) => h.length > 1)).toEqual([]);
  expect(seen.at(-1)).toEqual([to]);
  const lastOld = seen.map((h) => h.includes(from)).lastIndexOf(true);
  expect(lastOld).toBeLessThan(seen.findIndex((h) => h.includes(to)));
  expect(after.id).not.toBe(before.id);
  expect(after.outs).toMatchObject({ service: to, integrationEmail: address });
});
