// examples/full as a user runs it, in the TypeScript door: a first preview while the lookups'
// arguments are unknown, then the steps every door runs (example-full-support.ts): up, a clean
// `preview --refresh`, release 2 through the stack's config (an update on every kind), a clean
// `preview --refresh` again, destroy. The harness scans the state and the output for secrets.
import * as fs from "node:fs";
import * as path from "node:path";
import { destroyTest, firstPreviewTest, releaseTests } from "./example-full-support";
import { PulumiProject, ROOT, startEmulatorProcess, type EmulatorProcess } from "./harness";

jest.setTimeout(15 * 60_000);

let emu: EmulatorProcess;
let project: PulumiProject;

beforeAll(async () => {
  emu = await startEmulatorProcess();
  project = PulumiProject.create("full", fs.readFileSync(path.join(ROOT, "examples/full/index.ts"), "utf8"), emu, {}, { typecheck: true });
});

afterAll(async () => {
  await emu?.stop();
  project?.remove();
});

const door = { project: () => project, emu: () => emu, type: (kind: string) => `pulumi-nodejs:dynamic/pagerduty:${kind}` };

// The lookups are resources in this door: planned like the others.
firstPreviewTest(door, (steps) =>
  expect(steps.find((s) => s.urn.endsWith("::checkout-audit"))).toMatchObject({ op: "create", type: "pulumi-nodejs:dynamic/pagerduty:Lookup" }),
);
releaseTests(door);
destroyTest(door);
