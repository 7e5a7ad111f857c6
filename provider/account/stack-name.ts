// The fully qualified name of the stack a package plugin deploys, found without the program's help
// (a TypeScript program sends it, host/origin-stack.ts). Pulumi 3.248 tells a resource plugin
// neither its stack nor its organization: Configure carries the provider's settings and its own
// URN, Check a resource's URN, name and type, and the environment adds PULUMI_PROJECT and
// PULUMI_CONFIG to the CLI's own (NewProvider, package github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin).
// So, from the sources that say what the engine itself deploys:
// - project and stack: the URN of each resource (`urn:pulumi:<stack>::<project>::...`);
// - organization: a backend in storage (file, S3, GCS, Azure Blob, Postgres: the "DIY" backends)
//   has the one organization "organization"; any other (Pulumi Cloud) is asked of the `pulumi` CLI
//   in the project directory the plugin runs in, with the CLI's own environment: first the current
//   stack (PULUMI_STACK, else the selection: what the running CLI used when given no --stack),
//   taken only when it is this project's and stack's; else the stack's name as the CLI resolves a
//   name without organization (the default organization).
import { execFile } from "node:child_process";
import { PagerDutyError } from "../errors";
import { pulumiCommand } from "../host/pulumi-cli";
import { backendUrl } from "./local-checkpoint";

/** The organization of every stack of a backend in storage. */
export const DIY_ORGANIZATION = "organization";

/** URL schemes of the backends in storage (pulumi v3.248.0, pkg/backend/diy/backend.go: the gocloud blob drivers and postgres). */
const DIY_SCHEMES = new Set(["file", "s3", "gs", "azblob", "postgres"]);

export interface UrnStack {
  project: string;
  stack: string;
}

/** Project and stack of a URN (`urn:pulumi:<stack>::<project>::<type>::<name>`); undefined when it is not one. */
export function stackOfUrn(urn: string): UrnStack | undefined {
  const m = /^urn:pulumi:([^:]+)::([^:]+)::/.exec(urn);
  return m ? { stack: m[1], project: m[2] } : undefined;
}

/** Whether the backend URL names a backend in storage, whose organization is always "organization". */
export function isDiyBackend(url: string): boolean {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase();
  return scheme !== undefined && DIY_SCHEMES.has(scheme);
}

/** `pulumi stack --show-name --fully-qualify-stack-names [--stack NAME]`: the stack the CLI resolves, fully qualified. */
export type ShowStack = (stack?: string) => Promise<string>;

export interface StackLookup {
  env?: NodeJS.ProcessEnv;
  /** The project directory (the plugin's working directory). */
  cwd?: string;
  show?: ShowStack;
}

/** The fully qualified name of the stack `at` names: the backend's organization, else the CLI's answer. */
export async function qualifiedStack(at: UrnStack, lookup: StackLookup = {}): Promise<string> {
  const env = lookup.env ?? process.env;
  const cwd = lookup.cwd ?? process.cwd();
  const url = backendUrl(env, cwd);
  if (url && isDiyBackend(url)) return `${DIY_ORGANIZATION}/${at.project}/${at.stack}`;
  const show = lookup.show ?? showStack(cwd, env);
  const named = (answer: string) => {
    const [organization, project, stack, ...rest] = answer.trim().split("/");
    return organization && project === at.project && stack === at.stack && !rest.length ? answer.trim() : undefined;
  };
  // The current stack is unset, or another: not an error, the name decides.
  const current = await show().then(named, () => undefined);
  if (current) return current;
  const answer = await show(at.stack);
  const found = named(answer);
  if (!found)
    throw new PagerDutyError("ERR_STATE", `the pulumi CLI names stack "${at.stack}" of project "${at.project}" as "${answer.trim()}", which is not it`);
  return found;
}

/** Asks the CLI that runs this plugin (its parent, else the one on PATH), in `cwd`. */
export function showStack(cwd: string, env: NodeJS.ProcessEnv, pulumi = pulumiCommand()): ShowStack {
  return (stack) =>
    new Promise((resolve, reject) => {
      const args = ["stack", "--show-name", "--fully-qualify-stack-names", "--non-interactive", ...(stack ? ["--stack", stack] : [])];
      execFile(pulumi, args, { cwd, env, encoding: "utf8" }, (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const detail = (stderr || error.message).trim().split("\n").slice(-2).join(" ");
        reject(new PagerDutyError("ERR_STATE", `finding the organization of the stack with \`pulumi stack --show-name\` failed: ${detail}`));
      });
    });
}
