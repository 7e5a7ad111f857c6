// Bad input caught by `pulumi preview` (the real CLI, the real emulator): each error names the
// program's field and says what is wrong without dumping the value, and nothing is created, not
// even by an `up` (its preview fails first). (TLS failures: tests/e2e/https.test.ts.)
import { PulumiProject, startEmulatorProcess, type EmulatorProcess } from "./harness";
import { failsAtPreview as fails } from "./preview-failure";

jest.setTimeout(10 * 60_000);

let emu: EmulatorProcess;
let project: PulumiProject;

const SCOPES = "services.read services.write custom_fields.read audit_records.read escalation_policies.read";

beforeAll(async () => {
  emu = await startEmulatorProcess();
  project = PulumiProject.create("badinput", program(""), emu, { "pagerduty:scopes": SCOPES });
});

afterAll(async () => {
  project?.remove();
  await emu?.stop();
});

/** A service (with `serviceExtra` in its args) and whatever else `more` declares. */
function program(serviceExtra: string, more = ""): string {
  return `
import * as pulumi from "@pulumi/pulumi";
import * as pd from "pulumi-pagerduty-dynamic";
const cfg = new pulumi.Config();
const svc = new pd.Service("svc", { name: "Bad Input", escalationPolicy: cfg.require("escalationPolicyId"), ${serviceExtra} });
${more}
`;
}

const services = async () => (await emu.api<{ services: unknown[] }>("GET", "/services?query=Bad%20Input")).body.services.length;

const failsAtPreview = (source: string, pattern: RegExp) => fails(project, services, source, pattern);

test("an unknown integration type fails at preview, listing every type whole", async () => {
  const out = await failsAtPreview(
    program("", `new pd.ServiceIntegration("int", { service: svc.id, type: "carrier_pigeon_inbound_integration" });`),
    /type: "carrier_pigeon_inbound_integration" is not an integration type; the types are: events_api_v2_inbound_integration, [a-z_, ]+sql_monitor_inbound_integration \(or set `vendor` instead\)/,
  );
  expect(out).toMatch(/ServiceIntegration resource 'int'/);
});

test("support hours at 25:00:00 name the program's supportHours.startTime", async () => {
  const hours = `supportHours: { type: "fixed_time_per_day", timeZone: "Europe/Berlin", startTime: "25:00:00", endTime: "17:00:00", daysOfWeek: [1] },`;
  const out = await failsAtPreview(program(hours), /supportHours\.startTime: must be a time of day "HH:MM:SS" from 00:00:00 to 23:59:59/);
  expect(out).not.toMatch(/support_hours\.start_time/);
});

test("a time zone that does not exist fails in support hours and in a rule's weekly schedule", async () => {
  const hours = `supportHours: { type: "fixed_time_per_day", timeZone: "Mars/Olympus", startTime: "09:00:00", endTime: "17:00:00", daysOfWeek: [1] },`;
  await failsAtPreview(program(hours), /supportHours\.timeZone: "Mars\/Olympus" is not a time zone: use an IANA name such as "Europe\/Berlin" or "UTC"/);
  const rule = `new pd.ServiceEventRule("rule", { service: svc.id, actions: { annotate: { value: "x" } },
    timeFrame: { scheduledWeekly: { startTime: 0, duration: 60000, timezone: "Mars/Olympus", weekdays: [1] } } });`;
  await failsAtPreview(program("", rule), /timeFrame\.scheduledWeekly\.timezone: "Mars\/Olympus" is not a time zone/);
});

test("a time frame with both kinds names the field and the rule, without printing the value", async () => {
  const rule = `new pd.ServiceEventRule("rule", { service: svc.id, actions: { annotate: { value: "x" } },
    timeFrame: { activeBetween: { startTime: 1, endTime: 2 }, scheduledWeekly: { startTime: 0, duration: 60000, timezone: "UTC", weekdays: [1] } } });`;
  await failsAtPreview(
    program("", rule),
    /ServiceEventRule resource 'rule' has a problem: timeFrame: set exactly one of "activeBetween" and "scheduledWeekly"/,
  );
});

test("an escalation policy the account does not have fails at preview (the credentials carry escalation_policies.read)", async () => {
  const source = program("").replace(`cfg.require("escalationPolicyId")`, `"PNOSUCH"`);
  await failsAtPreview(source, /escalationPolicy: the account has no escalation policy PNOSUCH/);
});

test("valid input still previews and deploys cleanly (the checks above are not blanket refusals)", async () => {
  project.setProgram(
    program(`supportHours: { type: "fixed_time_per_day", timeZone: "US/Eastern", startTime: "09:00:00", endTime: "17:00:00", daysOfWeek: [1, 2] },`),
  );
  project.must(["up", "--yes"]);
  expect(await services()).toBe(1);
  project.must(["destroy", "--yes"]);
});
