// A refresh hands the engine the inputs as they now are (kernel/declared.ts): `ignoreChanges` keeps a
// value changed by hand through `pulumi up --refresh`, a planned update names the drifted field, a
// secret input stays secret, and the drift check still reports drift. Real CLI, emulator process.
import { PulumiProject, startEmulatorProcess, type EmulatorProcess } from "./harness";
import { knowSecret } from "./secret-scan";
import { serviceIdOf } from "./stack";

jest.setTimeout(15 * 60_000);

const DRIFT = ["refresh", "--preview-only", "--expect-no-changes", "--run-program"];
const SECRET_NOTE = "pager rota lives in vault 7f3c9e";
knowSecret(SECRET_NOTE, "the program's secret description"); // the harness scans state and output for it

/** "kept" ignores changes to its description; "restored" does not; "private" has a secret description. */
const program = (ignore: boolean) => `
import * as pulumi from "@pulumi/pulumi";
import * as pagerduty from "pulumi-pagerduty-dynamic";
const policy = new pulumi.Config().require("escalationPolicyId");
new pagerduty.Service("kept", { name: "Kept", description: "From the program", escalationPolicy: policy }${ignore ? ', { ignoreChanges: ["description"] }' : ""});
new pagerduty.Service("restored", { name: "Restored", description: "From the program", escalationPolicy: policy });
new pagerduty.Service("private", { name: "Private", description: pulumi.secret(${JSON.stringify(SECRET_NOTE)}), escalationPolicy: policy, acknowledgementTimeout: 600 });
`;

let emu: EmulatorProcess;
let project: PulumiProject;

beforeAll(async () => {
  emu = await startEmulatorProcess();
  project = PulumiProject.create("refreshinputs", program(true), emu);
  project.must(["up", "--yes", "--skip-preview"]);
});

afterAll(async () => {
  await emu?.stop();
  project?.remove();
});

const out = (r: { stdout: string; stderr: string }) => r.stdout + r.stderr;
const live = async (name: string) => (await emu.api<{ service: any }>("GET", `/services/${serviceIdOf(project, name)}`)).body.service;
const byHand = async (name: string, service: Record<string, unknown>) =>
  expect((await emu.api("PUT", `/services/${serviceIdOf(project, name)}`, { service })).status).toBe(200);
/** The lines `--diff` prints for the resource named `name`, up to the next resource or the summary. */
const stepOf = (text: string, name: string) => text.split(/\n(?= {4}[~+-] \S| {4}\S|Resources:)/).find((b) => b.includes(`::${name}]`)) ?? "";
const inputsOf = (name: string) => project.resources().find((r) => r.urn.endsWith(`::${name}`))!.inputs;

test("ignoreChanges holds through `up --refresh`: the hand-made description stays; the other service gets the program's back", async () => {
  await byHand("kept", { description: "Edited by hand" });
  await byHand("restored", { description: "Edited by hand" });

  // The drift check reports both (the live value differs from the state either way).
  const drift = project.run([...DRIFT, "--diff"]);
  expect(drift.code).toBe(7);
  for (const name of ["kept", "restored"]) expect(stepOf(out(drift), name)).toMatch(/~ description\s*: "From the program" => "Edited by hand"/);

  project.must(["up", "--yes", "--refresh", "--skip-preview"]);
  expect((await live("kept")).description).toBe("Edited by hand");
  expect((await live("restored")).description).toBe("From the program");
  // The state's inputs are the declared fields with their live values (and what the provider keeps).
  expect(inputsOf("kept")).toMatchObject({
    name: "Kept",
    description: "Edited by hand",
    escalationPolicy: emu.escalationPolicyId,
    __origin: expect.any(String),
  });
  expect(Object.keys(inputsOf("kept")).sort()).toEqual(["__origin", "__provider", "description", "escalationPolicy", "name"]);

  project.must(["preview", "--expect-no-changes"]);
  expect(project.run(DRIFT).code).toBe(0);
  project.must(["up", "--yes", "--refresh", "--skip-preview"]);
  expect((await live("kept")).description).toBe("Edited by hand");
});

test("without ignoreChanges, a preview after refresh names the drifted field and `up --refresh` restores it", async () => {
  project.setProgram(program(false));
  // "kept" still holds the hand-made description: the update is planned and names it.
  const preview = project.run(["preview", "--refresh", "--diff"]);
  expect(preview.code).toBe(0);
  expect(stepOf(out(preview), "kept")).toMatch(/~ description\s*: "Edited by hand" => "From the program"/);
  const plain = project.run(["preview", "--refresh"]);
  expect(out(plain)).toMatch(/~\s+.*pagerduty:Service\s+kept\s+update\s+\[diff: ~description\]/);
  expect(project.run(["preview", "--refresh", "--expect-no-changes"]).code).not.toBe(0);

  project.must(["up", "--yes", "--refresh", "--skip-preview"]);
  expect((await live("kept")).description).toBe("From the program");
  expect(project.run(DRIFT).code).toBe(0);
  project.must(["preview", "--refresh", "--expect-no-changes"]);
});

test("a secret input stays secret in the state after a refresh changed it", async () => {
  await byHand("private", { acknowledgement_timeout: 900 });
  project.must(["refresh", "--yes", "--skip-preview", "--run-program"]);
  const inputs = inputsOf("private");
  expect(inputs.acknowledgementTimeout).toBe(900);
  expect(inputs.description).toMatchObject({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: expect.any(String) });
  project.must(["up", "--yes", "--skip-preview"]);
  expect((await live("private")).acknowledgement_timeout).toBe(600);
});
