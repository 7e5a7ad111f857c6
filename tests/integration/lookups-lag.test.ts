// The lookups right after this process's creates, against an emulator that hides every new object
// for a while (PagerDuty's consistency lag): a program that looks up what it just made (dependsOn)
// finds it, the lookup waiting out the lag rather than answering "no service is named ..." or "no
// service has id ...".
import { envOf } from "./lifecycle/env";
import { Stage } from "./lifecycle/stage";

/** More than the 3 s of second looks an unknown 404 gets: only the window of a young object covers it. */
const LAG_MS = 4_000;

let stage: Stage;
beforeAll(async () => {
  stage = await Stage.start({ lagMs: LAG_MS, windowSeconds: 30 });
});
afterAll(() => stage?.close());

/** A lookup as the package's function, over the deployment the engine's creates went through. */
async function invoke(fn: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const r = await stage.engine.plugin.invoke(`pagerduty-dynamic:index:${fn}`, args);
  if (r.failures?.length) throw new Error(`${fn} failed: ${r.failures.map((f) => f.reason).join("; ")}`);
  return r.outputs ?? {};
}

test("a service and its integration looked up right after their creates are found", async () => {
  const env = envOf(stage, "lookup_lag");
  const name = env.unique("looked_up");
  const service = await stage.engine.create("Service", "svc", { name, escalationPolicy: env.policy });
  // Still hidden from the listing and from reads.
  expect((await env.api.get(`/services/${service.id}`)).status).toBe(404);
  expect(await invoke("getService", { name })).toMatchObject({ id: service.id, name });
  expect(await invoke("getServiceEnablements", { service: service.id })).toHaveProperty("enablements");

  const integration = await stage.engine.create("ServiceIntegration", "int", {
    service: service.id,
    type: "events_api_v2_inbound_integration",
    name: "Alerts",
  });
  expect((await env.api.get(`/services/${service.id}/integrations/${integration.id}`)).status).toBe(404);
  expect(await invoke("getServiceIntegration", { service: service.id, name: "Alerts" })).toMatchObject({ id: integration.id });
}, 60_000);
