// `pulumi up` at the repository root (its Pulumi.yaml) deploys examples/quickstart for a user who
// cloned the repository and ran `npm install` and `npm run build`: the program finds this package
// through the workspace link `npm install` makes in the root's node_modules, and so does the
// dynamic-provider host with each resource's one-line `__provider`; nothing is installed into the example.
import { startEmulatorProcess, type RunningEmulator } from "./harness";
import { RootClone } from "./root-clone";

jest.setTimeout(10 * 60_000);

let emu: RunningEmulator;
let clone: RootClone;

beforeAll(async () => {
  emu = await startEmulatorProcess();
  clone = new RootClone("root");
});

afterAll(async () => {
  await emu?.stop();
  clone?.remove();
});

const serviceNames = async () => (await emu.api<{ services: any[] }>("GET", "/services?limit=100")).body.services.map((s) => s.name).sort();

test("up at the root deploys the quickstart; preview and the drift check are clean; destroy removes it", async () => {
  clone.must(["stack", "init", "dev"]);
  for (const [k, v] of Object.entries(clone.configFor(emu))) clone.must(["config", "set", "--", k, v]);
  clone.must(["config", "set", "--secret", "pagerduty:clientSecret"], 0, emu.oauth.clientSecret);

  clone.must(["up", "--yes", "--skip-preview"]);
  expect(await serviceNames()).toEqual(["Checkout API", "Search"]);
  const outputs = JSON.parse(clone.must(["stack", "output", "--json"]).stdout);
  expect(outputs.checkoutUrl).toMatch(/^http/);
  expect(outputs.searchId).toMatch(/^P/);

  // The provider line names the package, not the clone's directory (the host finds it through the
  // workspace link, as the up above shows), and nothing else.
  const state = JSON.parse(clone.must(["stack", "export"]).stdout).deployment.resources as any[];
  const services = state.filter((r) => r.type === "pulumi-nodejs:dynamic/pagerduty:Service");
  expect(services).toHaveLength(2);
  for (const r of services)
    expect([r.inputs.__provider, r.outputs.__provider]).toEqual(Array(2).fill('exports.handler=()=>require("pulumi-pagerduty-dynamic/providers").Service'));

  clone.must(["preview", "--expect-no-changes"]);
  clone.must(["refresh", "--preview-only", "--expect-no-changes", "--run-program"]);
  clone.must(["destroy", "--yes", "--skip-preview"]);
  expect(await serviceNames()).toEqual([]);
});
