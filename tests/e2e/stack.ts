// Reading a stack from the e2e tests of service children (integrations, event rules, conversion):
// resources of the state by logical name, and the Pulumi warnings an operation reported.
import type { PulumiProject } from "./harness";

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
