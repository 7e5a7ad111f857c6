// pagerduty:ServiceDependency end to end: real Pulumi CLI, packed package, emulator process.
import { refreshPreview } from "./fixtures";
import { PulumiProject, startEmulatorProcess, type RunningEmulator } from "./harness";

jest.setTimeout(15 * 60_000);

/** `supporting`: which of the program's services supports `web`; `business`: a business service id `web` supports instead. */
const program = (supporting: "db" | "cache", business?: string) => `
import * as pulumi from "@pulumi/pulumi";
import * as pagerduty from "pulumi-pagerduty-dynamic";
const escalationPolicy = new pulumi.Config().require("escalationPolicyId");
const db = new pagerduty.Service("db", { name: "Deps db", escalationPolicy });
const cache = new pagerduty.Service("cache", { name: "Deps cache", escalationPolicy });
const web = new pagerduty.Service("web", { name: "Deps web", escalationPolicy });
const dep = new pagerduty.ServiceDependency("dep", { supportingService: { id: ${supporting}.id }, dependentService: { id: web.id } });
${business ? `new pagerduty.ServiceDependency("biz", { supportingService: { id: web.id }, dependentService: { id: ${JSON.stringify(business)}, type: "business_service" } });` : ""}
export const ids = { db: db.id, cache: cache.id, web: web.id, dep: dep.id };
`;

let emu: RunningEmulator;
let project: PulumiProject;
let business: string;

beforeAll(async () => {
  emu = await startEmulatorProcess();
  const made = await emu.api("POST", "/business_services", { business_service: { name: "Checkout" } });
  business = made.body.business_service.id;
  project = PulumiProject.create("deps", program("db"), emu);
});

afterAll(async () => {
  await emu?.stop();
  project?.remove();
});

const deps = async (id: string) => (await emu.api("GET", `/service_dependencies/technical_services/${id}`)).body.relationships as Array<Record<string, any>>;

test("up associates the dependency; no changes after a refresh", async () => {
  project.must(["up", "--yes", "--skip-preview"]);
  const { db, web, dep } = project.outputs().ids;
  expect(await deps(web)).toEqual([expect.objectContaining({ id: dep, supporting_service: expect.objectContaining({ id: db }) })]);
  project.must(["refresh", "--yes", "--skip-preview"]);
  project.must(["preview", "--expect-no-changes"]);
});

test("another supporting service replaces the dependency; a business service can be a side", async () => {
  project.setProgram(program("cache", business));
  expect(project.stepsOf("dep")).toContain("replace");
  project.must(["up", "--yes", "--skip-preview"]);
  const { db, cache, web } = project.outputs().ids;
  const onWeb = await deps(web);
  expect(onWeb.map((r) => r.supporting_service.id).sort()).toEqual([cache, web].sort());
  expect(await deps(db)).toEqual([]);
  expect((await emu.api("GET", `/service_dependencies/business_services/${business}`)).body.relationships).toHaveLength(1);
  project.must(["preview", "--expect-no-changes"]);
});

test("a dependency removed by hand is drift (exit 7), and up puts it back", async () => {
  const { cache, web } = project.outputs().ids;
  const gone = await emu.api("POST", "/service_dependencies/disassociate", {
    relationships: [{ supporting_service: { id: cache, type: "service" }, dependent_service: { id: web, type: "service" } }],
  });
  expect(gone.status).toBe(200);
  expect(refreshPreview(project).code).toBe(7);
  project.must(["up", "--yes", "--skip-preview", "--refresh"]);
  expect((await deps(web)).some((r) => r.supporting_service.id === cache)).toBe(true);
  project.must(["refresh", "--preview-only", "--expect-no-changes", "--run-program"]);
});

test("destroy disassociates", async () => {
  const { web } = project.outputs().ids;
  project.must(["destroy", "--yes", "--skip-preview"]);
  expect((await emu.api("GET", `/service_dependencies/technical_services/${web}`)).status).toBe(404);
  expect((await emu.api("GET", `/service_dependencies/business_services/${business}`)).body.relationships).toEqual([]);
});
