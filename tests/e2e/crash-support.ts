// Interrupting real deployments for the crash tests: the CLI started in its own session (as a CI
// runner starts it), killed as a cancelled job (its process group) or a lost machine (every process
// of the session: CLI, language host, program, dynamic provider) would be; and the check that the
// emulator holds exactly the objects the state records.
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { BROKEN_CHECKPOINT, locateStack, repairCheckpoint, restoredMessage } from "../../provider/cli/checkpoint-repair";
import { readLocalCheckpoint } from "../../provider/account/local-checkpoint";
import { type Door, recordedType } from "../../provider/kernel/recorded-type";
import type { PulumiCli, PulumiProject, EmulatorProcess } from "./harness";

/** The types the state records for the kinds that create objects (derived, not spelled again), through a door. */
export const typesOf = (door: Door) =>
  ({
    service: recordedType("Service", door),
    integration: recordedType("ServiceIntegration", door),
    rule: recordedType("ServiceEventRule", door),
  }) as const;

/** The dynamic providers' types. */
export const TYPES = typesOf("dynamic");

/** N services, each with an integration and an event rule, named after the stack. */
export const PROGRAM = `
import * as pulumi from "@pulumi/pulumi";
import * as pd from "pulumi-pagerduty-dynamic";
const cfg = new pulumi.Config();
const n = cfg.requireNumber("services");
const description = cfg.get("description");
for (let i = 0; i < n; i++) {
  const svc = new pd.Service(\`svc\${i}\`, {
    name: \`\${pulumi.getStack()} svc \${i}\`,
    escalationPolicy: cfg.require("escalationPolicyId"),
    ...(description ? { description } : {}),
  });
  new pd.ServiceIntegration(\`int\${i}\`, { service: svc.id, type: "events_api_v2_inbound_integration", name: \`events \${i}\` });
  new pd.ServiceEventRule(\`rule\${i}\`, {
    service: svc.id,
    conditions: { operator: "and", subconditions: [{ operator: "contains", parameters: { path: "payload.summary", value: \`svc\${i}\` } }] },
    actions: { annotate: { value: \`rule \${i}\` } },
  });
}
`;

/** A new stack of the project with the config of "dev", selected. */
export function newStack(project: PulumiProject, name: string, services: number): void {
  project.must(["stack", "init", name]);
  project.must(["config", "cp", "--stack", "dev", "--dest", name]);
  project.must(["config", "set", "services", String(services)]);
}

export interface Running {
  proc: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  output(): string;
}

/** Starts `pulumi <args>` in a new session and process group, as a CI runner starts a job. */
export function startDetached(project: PulumiCli, args: string[]): Running {
  const proc = spawn("pulumi", ["--non-interactive", ...args], { cwd: project.dir, env: project.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  proc.stdout!.on("data", (d) => (out += d));
  proc.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
  return {
    proc,
    exited: exited.then((code) => {
      project.log += out;
      return code;
    }),
    output: () => out,
  };
}

/** Process ids of a session (the CLI's own, the language host's and provider's groups included). */
export function sessionPids(sid: number): number[] {
  const ps = execFileSync("ps", ["-eo", "pid=,sid="], { encoding: "utf8" });
  return ps
    .split("\n")
    .map((l) => l.trim().split(/\s+/).map(Number))
    .filter(([pid, s]) => s === sid && pid > 0)
    .map(([pid]) => pid);
}

function kill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

/** kill -9 of every process of the session: the machine is gone. */
export async function killSession(run: Running): Promise<void> {
  const sid = run.proc.pid!;
  for (const pid of sessionPids(sid)) kill(pid, "SIGKILL");
  await run.exited;
  for (const pid of sessionPids(sid)) kill(pid, "SIGKILL");
}

/**
 * kill -9 of the CLI's process group (a cancelled CI job): the language host, program and provider
 * run on in their own groups for a moment and their requests still land. Waits for them to end.
 */
export async function killGroup(run: Running): Promise<void> {
  const sid = run.proc.pid!;
  kill(-sid, "SIGKILL");
  await run.exited;
  await waitFor(async () => sessionPids(sid).length === 0, 8_000).catch(() => undefined);
  for (const pid of sessionPids(sid)) kill(pid, "SIGKILL");
}

/** Polls until `cond` holds; rejects after `timeoutMs`. */
export async function waitFor(cond: () => Promise<boolean>, timeoutMs = 60_000, stepMs = 100): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await cond()) return;
    if (Date.now() > end) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

export interface Inventory {
  services: Array<{ id: string; name: string }>;
  integrations: Array<{ id: string; service: string; name: string }>;
  rules: Array<{ id: string; service: string }>;
}

/** What the emulator holds for the services whose names start with `prefix`. */
export async function inventory(emu: EmulatorProcess, prefix: string): Promise<Inventory> {
  const r = await emu.api<{ services: Array<{ id: string; name: string; integrations?: Array<{ id: string; summary?: string }> }> }>(
    "GET",
    `/services?query=${encodeURIComponent(prefix)}&limit=100&include[]=integrations`,
  );
  const services = r.body.services.filter((s) => s.name.startsWith(`${prefix} `));
  const inv: Inventory = { services: services.map((s) => ({ id: s.id, name: s.name })), integrations: [], rules: [] };
  for (const s of services) {
    for (const i of s.integrations ?? []) inv.integrations.push({ id: i.id, service: s.id, name: i.summary ?? "" });
    const rules = await emu.api<{ rules: Array<{ id: string }> }>("GET", `/services/${s.id}/rules?limit=100`);
    for (const rule of rules.body.rules ?? []) inv.rules.push({ id: rule.id, service: s.id });
  }
  return inv;
}

/** Objects created so far (services + children), for choosing the moment to interrupt. */
export async function countObjects(emu: EmulatorProcess, prefix: string): Promise<{ services: number; children: number }> {
  const inv = await inventory(emu, prefix);
  return { services: inv.services.length, children: inv.integrations.length + inv.rules.length };
}

export interface StateView {
  ids: Record<keyof typeof TYPES, string[]>;
  pending: Array<{ type: string; urn: string }>;
}

/**
 * `pulumi stack export`. A kill can land while the file backend writes the checkpoint's `.attrs`
 * sidecar (written in place), and every read then fails with EOF: mended as `pagerduty-recover`
 * mends it (the shipped repair, said in the output), then exported again.
 */
function exportAfterLoss(project: PulumiCli, stack?: string): string {
  const on = stack ? ["--stack", stack] : [];
  const first = project.run(["stack", "export", ...on]);
  if (first.code === 0) return first.stdout;
  if (!BROKEN_CHECKPOINT.test(first.stderr)) throw new Error(`pulumi stack export exited ${first.code}\n${first.stdout}\n${first.stderr}`);
  const where = locateStack(
    (args) => project.must([...args, ...on]).stdout,
    () => project.must(["whoami", "--json"]).stdout,
  );
  const repair = repairCheckpoint(where, project.dir);
  if (repair.kind === "restored" || repair.kind === "sidecar") process.stdout.write(`crash-support: ${restoredMessage(repair)}\n`);
  return project.must(["stack", "export", ...on]).stdout;
}

/** `types`: the door's the program's resources came through; resources whose URN `ignore` matches are not counted. */
export function stateOf(project: PulumiCli, stack?: string, types: Record<keyof typeof TYPES, string> = TYPES, ignore?: RegExp): StateView {
  const d = JSON.parse(exportAfterLoss(project, stack)).deployment;
  if (project.env.PULUMI_BACKEND_URL?.startsWith("file://")) {
    // The provider reads the same state from the backend's file (provider/account/local-checkpoint.ts).
    const name = project.must(["stack", "--show-name", "-Q", ...(stack ? ["--stack", stack] : [])]).stdout.trim();
    const local = readLocalCheckpoint(name, project.env, project.dir)?.deployment;
    expect({ resources: local?.resources, pending: local?.pending_operations ?? [] }).toEqual({ resources: d.resources, pending: d.pending_operations ?? [] });
  }
  const resources: Array<{ urn: string; type: string; id?: string }> = (d.resources ?? []).filter((r: { urn: string }) => !ignore?.test(r.urn));
  const ids = (t: string) =>
    resources
      .filter((r) => r.type === t)
      .map((r) => r.id!)
      .sort();
  return {
    ids: { service: ids(types.service), integration: ids(types.integration), rule: ids(types.rule) },
    pending: (d.pending_operations ?? []).map((o: { type: string; resource: { urn: string } }) => ({ type: o.type, urn: o.resource.urn })),
  };
}

/**
 * The emulator holds exactly what the state records: every declared object once (nothing missing),
 * no object the state does not know (no orphan, no duplicate), no pending operation left.
 */
export async function expectConverged(
  project: PulumiCli,
  emu: EmulatorProcess,
  prefix: string,
  n: number,
  opts: { stack?: string; env?: NodeJS.ProcessEnv; stalePending?: boolean; types?: Record<keyof typeof TYPES, string>; ignore?: RegExp } = {},
): Promise<void> {
  const state = stateOf(project, opts.stack, opts.types, opts.ignore);
  const inv = await inventory(emu, prefix);
  if (opts.stalePending) {
    // Plain `pulumi up` cannot clear pending creates (only a refresh or pagerduty-recover can): the
    // ones left must belong to resources the state now records.
    const urns = new Set(project.resources(opts.stack).map((r) => r.urn));
    for (const p of state.pending) expect({ pending: p.urn, recorded: urns.has(p.urn) }).toEqual({ pending: p.urn, recorded: true });
  } else expect(state.pending).toEqual([]);
  expect(state.ids.service).toHaveLength(n);
  expect(state.ids.integration).toHaveLength(n);
  expect(state.ids.rule).toHaveLength(n);
  expect(inv.services.map((s) => s.id).sort()).toEqual(state.ids.service);
  expect(inv.integrations.map((i) => i.id).sort()).toEqual(state.ids.integration);
  expect(inv.rules.map((r) => r.id).sort()).toEqual(state.ids.rule);
  // One integration and one rule per service.
  for (const s of inv.services) {
    expect(inv.integrations.filter((i) => i.service === s.id)).toHaveLength(1);
    expect(inv.rules.filter((r) => r.service === s.id)).toHaveLength(1);
  }
  const preview = project.run(["preview", "--expect-no-changes", ...(opts.stack ? ["--stack", opts.stack] : [])]);
  if (preview.code !== 0) throw new Error(`preview --expect-no-changes exited ${preview.code}\n${preview.stdout}\n${preview.stderr}`);
}

export type Counts = { services: number; children: number };

/**
 * What `up` says when it adopts an object a cut-off run made while its create stayed pending. The
 * object is whichever create reached PagerDuty first: a service or an integration (ids P…) or an
 * event rule (a UUID), so the pattern takes either.
 */
export const ADOPTED_PENDING =
  /adopted (?:P[A-Z0-9]+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}) instead of creating a second one: an earlier deployment of this stack was interrupted while creating it \(its create is still pending in the stack's state\)/;

/**
 * Makes a new stack (`stack`, by `makeStack`), starts `up` with slow create replies and cuts it off
 * (`how`: only the CLI's process group, as a cancelled job; or the whole session, as a lost runner)
 * once `when` holds for the emulator's objects. A kill that lands while the file backend writes its
 * checkpoint can leave it cut short (`failed to load checkpoint`): that is another scenario
 * (tests/e2e/outages.test.ts restores it from its .bak), so the attempt is set aside and made again
 * on a stack of another name, whose objects no check of this one counts. Returns the stack's name.
 */
export async function interruptedUp(
  project: PulumiCli,
  emu: EmulatorProcess,
  stack: string,
  when: (c: Counts) => boolean,
  how: "cli" | "runner",
  opts: {
    makeStack: (name: string) => void;
    types?: Record<keyof typeof TYPES, string>;
    label?: string;
    /** Also required before the kill (say, an object of another account made). */
    ready?: (stack: string) => Promise<boolean>;
  },
): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const name = attempt === 1 ? stack : `${stack}-${attempt}`;
    opts.makeStack(name);
    await slowCreates(emu, 1500);
    const run = startDetached(project, ["up", "--yes", "--skip-preview", "--stack", name]);
    await waitFor(async () => when(await countObjects(emu, name)) && (opts.ready ? await opts.ready(name) : true));
    await (how === "cli" ? killGroup(run) : killSession(run));
    await clearFaults(emu);
    const exported = project.run(["stack", "export", "--stack", name]);
    if (exported.code !== 0 && /failed to load checkpoint/.test(exported.stderr) && attempt < 3) {
      process.stdout.write(`${opts.label ?? "crash e2e"}: the kill cut the checkpoint of ${name} short; the scenario is made again\n`);
      continue;
    }
    expect(stateOf(project, name, opts.types).pending.length).toBeGreaterThan(0);
    return name;
  }
}

/** Slows the creates (the reply leaves `ms` after the object is made) so an interruption lands mid-way. */
export async function slowCreates(emu: EmulatorProcess, ms: number): Promise<void> {
  await slowRoutes(emu, ["POST /services", "POST /services/:id/integrations", "POST /services/:id/rules"], ms);
}

/** Slows the replies of `routes`: the request is carried out at once, its reply leaves `ms` later. */
export async function slowRoutes(emu: EmulatorProcess, routes: string[], ms: number): Promise<void> {
  for (const route of routes) {
    const r = await emu.admin("POST", "/_emulator/faults", { route, latencyMs: ms, after: true });
    if (r.status !== 201) throw new Error(`adding a fault: ${r.status} ${JSON.stringify(r.body)}`);
  }
}

export async function clearFaults(emu: EmulatorProcess): Promise<void> {
  await emu.admin("DELETE", "/_emulator/faults");
}

/** `npx --no-install pagerduty-recover` in the project, as docs/interruptions.md says. */
export function recover(project: PulumiProject, extra: string[] = []): { code: number; out: string } {
  return runWith(project, project.env, "npx", ["--no-install", "pagerduty-recover", ...extra]);
}

/** A fresh runner's environment: the project's, with an empty PULUMI_HOME and cache (no journal, no stack selected), and `extra`. */
export function freshRunnerEnv(project: PulumiCli, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ppd-runner-"));
  return { ...project.env, PULUMI_HOME: path.join(dir, "home"), XDG_CACHE_HOME: path.join(dir, "cache"), ...extra };
}

/** `command args` in the project's directory with `env`; what it prints goes to the project's log too (the secret scan). */
export function runWith(project: PulumiCli, env: NodeJS.ProcessEnv, command: string, args: string[]): { code: number; out: string } {
  // Bounded: a synchronous run that hangs would hold the whole jest process past every test timeout.
  const r = spawnSync(command, args, { cwd: project.dir, env, encoding: "utf8", maxBuffer: 64 << 20, timeout: 6 * 60_000, killSignal: "SIGKILL" });
  const out = `${r.stdout}${r.stderr}${r.error ? `\n${command} did not finish: ${r.error.message}` : ""}`;
  project.log += out;
  return { code: r.status ?? -1, out };
}
