// Service's provider functions against a live emulator over HTTP (port 0), configured the way Pulumi
// does it: what its lifecycle row (tests/integration/lifecycle/rows/service.ts) does not show.
import { startEmulator } from "../../../emulator/src";
import { PagerDutyError } from "../../../provider/errors";
import { Deployment } from "../../../provider/account/deployment";
import { makeProvider } from "../../../provider/operations/factory";
import { resource } from "../../../provider/resources/service";
import { client } from "../../emulator/helpers";

const deployment = new Deployment({ warn: () => undefined });
const provider = makeProvider(resource, () => deployment.context());

let emu: Awaited<ReturnType<typeof startEmulator>>;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  const config: Record<string, string> = {
    "pagerduty:apiUrl": emu.apiUrl,
    "pagerduty:authUrl": emu.authUrl,
    "pagerduty:subdomain": emu.seed.account.subdomain,
    "pagerduty:serviceRegion": emu.seed.account.region,
    "pagerduty:clientId": emu.seed.oauth.clientId,
    "pagerduty:clientSecret": emu.seed.oauth.clientSecret,
    // The emulator shows a new object at once: a 404 is believed after the second looks alone.
    "pagerduty:consistencyWindow": "0",
  };
  deployment.configure((k) => config[k]);
});

afterAll(async () => {
  await deployment.reset();
  await emu?.close();
});

const inputs = () => ({ name: "Checkout", escalationPolicy: emu.seed.escalationPolicyId, acknowledgementTimeout: 600, __provider: "serialized" });

test("create -> read -> update -> delete; read after delete reports gone", async () => {
  const created = await provider.create(inputs());
  expect(created.id).toMatch(/^P[A-Z0-9]+$/);
  expect(created.outs).toMatchObject({ name: "Checkout", acknowledgementTimeout: 600, autoResolveTimeout: 14400, status: "active" });

  const read = await provider.read!(created.id, created.outs);
  // The inputs as declared, with their live values (kernel/declared.ts): what `ignoreChanges` keeps after a refresh.
  expect(read).toEqual({
    id: created.id,
    props: created.outs,
    inputs: { name: "Checkout", escalationPolicy: emu.seed.escalationPolicyId, acknowledgementTimeout: 600 },
  });
  await expect(provider.diff!(created.id, read.props, inputs())).resolves.toMatchObject({ changes: false });

  const updated = await provider.update!(created.id, read.props, { ...inputs(), description: "orders", autoResolveTimeout: null });
  expect(updated.outs).toMatchObject({ description: "orders", acknowledgementTimeout: 600 });
  // Auto-resolve is off: the service reports null, an unset output the state leaves out.
  expect(updated.outs).not.toHaveProperty("autoResolveTimeout");
  await expect(provider.diff!(created.id, updated.outs!, { ...inputs(), description: "orders", autoResolveTimeout: null })).resolves.toMatchObject({
    changes: false,
  });

  await provider.delete!(created.id, updated.outs);
  await expect(provider.read!(created.id, updated.outs)).resolves.toEqual({ id: "", props: {} });
  await expect(provider.delete!(created.id, updated.outs)).resolves.toBeUndefined(); // 404 = already gone
}, 20_000); // each 404 gets two second looks (3 s)

test("a timeout the program leaves out is the server's default and a declared null turns it off: the live services show both, and neither is a diff after a read", async () => {
  const api = client(emu, `Token token=${emu.seed.apiKey}`);
  const left = await provider.create({ ...inputs(), name: "Defaults" });
  const off = await provider.create({ ...inputs(), name: "Off", autoResolveTimeout: null });
  const live = async (id: string) => (await api.get(`/services/${id}`)).json.service;
  expect(await live(left.id)).toMatchObject({ acknowledgement_timeout: 600, auto_resolve_timeout: 14400 });
  expect((await live(off.id)).auto_resolve_timeout).toBeNull();
  for (const [made, declared] of [
    [left, inputs()],
    [off, { ...inputs(), autoResolveTimeout: null }],
  ] as const) {
    const read = await provider.read!(made.id, made.outs);
    await expect(provider.diff!(made.id, read.props, { ...declared, name: made.outs.name })).resolves.toMatchObject({ changes: false });
    await provider.delete!(made.id, read.props);
  }
});

test("a non-active status is a second step of create", async () => {
  const created = await provider.create({ ...inputs(), name: "Legacy", status: "disabled" });
  expect(created.outs.status).toBe("disabled");
  await provider.delete!(created.id, created.outs);
});

test("adoption brings an existing service under management without creating one", async () => {
  const first = await provider.create({ ...inputs(), name: "Existing" });
  const adopted = await provider.create({ ...inputs(), name: "Existing", description: "now managed", adoptId: first.id });
  expect(adopted.id).toBe(first.id);
  expect(adopted.outs.description).toBe("now managed");
  await provider.delete!(first.id, adopted.outs);
});

test("API validation errors surface with the field and no credentials", async () => {
  const err = await provider.create({ ...inputs(), escalationPolicy: "PNOPE00" }).catch((e) => e);
  expect(err).toBeInstanceOf(PagerDutyError);
  expect(err.message).toMatch(/POST \/services failed: 400/);
  expect(JSON.stringify(err) + String(err) + err.stack).not.toContain(emu.seed.oauth.clientSecret);
});
