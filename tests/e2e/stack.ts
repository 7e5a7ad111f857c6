// Reading a stack from the e2e tests: resources of the state by logical name, the Pulumi warnings
// an operation reported, and the messages it printed.
import type { PulumiProject, RunResult } from "./harness";

/** The state of the resource of `type` named `name` (the last URN segment), if any. */
export function resourceOf(project: PulumiProject, type: string, name: string) {
  return project.resources().find((r) => r.type === type && r.urn.endsWith(`::${name}`));
}

/** The id of the pagerduty:Service named `name`. */
export function serviceIdOf(project: PulumiProject, name: string): string {
  return resourceOf(project, "pulumi-nodejs:dynamic/pagerduty:Service", name)!.id!;
}

/** Runs an operation and returns its warnings: engine diagnostics of severity "warning", not stderr text. */
export function warningsOf(project: PulumiProject, args: string[]): string[] {
  // With --json and no preview, up and destroy print one engine event per line.
  return project
    .must([...args, "--json"])
    .stdout.split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l).diagnosticEvent)
    .filter((d) => d?.severity === "warning")
    .map((d) => d.message as string);
}

/** How often `needle` occurs in `text`. */
export const count = (text: string, needle: string) => text.split(needle).length - 1;

/** The "Diagnostics:" part of the CLI's output, where each resource's and the stack's messages are listed once. */
export const diagnostics = (out: string) => out.slice(out.indexOf("Diagnostics:"));

/** A failed run that names `key` and prints `detail` once, without the provider's stack trace. */
export function expectOnceWithoutTrace(r: RunResult, key: string, detail: string): void {
  const out = r.stdout + r.stderr;
  expect(r.code).not.toBe(0);
  expect(out).toContain(key);
  // Once in the diagnostics (the progress display above it echoes the resource's error line).
  expect(count(diagnostics(out), detail)).toBe(1);
  expect(count(out, detail)).toBeLessThanOrEqual(2);
  expect(out).not.toMatch(/ConfigError|PagerDutyError/);
  expect(out).not.toMatch(/\sat (\S+ \()?\S+:\d+:\d+\)?$/m); // no "    at fn (file:line:col)" lines
}
