// `pulumi preview` at the repository root (its Pulumi.yaml) plans examples/quickstart for a user who
// cloned the repository and ran `npm install` and `npm run build`: the program finds this package
// through the workspace link `npm install` makes in the root's node_modules, and so does the
// dynamic-provider host with each resource's one-line `__provider` (its check and diff run there);
// nothing is installed into the example. (The quickstart's up, drift check and destroy:
// tests/e2e/quickstart.test.ts.)
import { startEmulatorProcess, type EmulatorProcess } from "./harness";
import { RootClone } from "./root-clone";

jest.setTimeout(10 * 60_000);

let emu: EmulatorProcess;
let clone: RootClone;

beforeAll(async () => {
  emu = await startEmulatorProcess();
  clone = new RootClone("root");
});

afterAll(async () => {
  await emu?.stop();
  clone?.remove();
});

test("a preview at the root plans the quickstart's two services, their providers naming the package alone", () => {
  clone.must(["stack", "init", "dev"]);
  clone.setConfig(clone.configFor(emu));
  clone.must(["config", "set", "--secret", "pagerduty:clientSecret"], 0, emu.oauth.clientSecret);

  const steps = JSON.parse(clone.must(["preview", "--json"]).stdout).steps as Array<{ op: string; newState?: { type: string; inputs: any } }>;
  const services = steps.filter((s) => s.newState?.type === "pulumi-nodejs:dynamic/pagerduty:Service");
  expect(services.map((s) => [s.op, s.newState!.inputs.name]).sort()).toEqual([
    ["create", "Checkout API"],
    ["create", "Search"],
  ]);
  // The provider line names the package, not the clone's directory (the host found it through the
  // workspace link: the preview's check and diff ran there), and nothing else.
  for (const s of services) expect(s.newState!.inputs.__provider).toBe('exports.handler=()=>require("pulumi-pagerduty-dynamic/providers").Service');
});
