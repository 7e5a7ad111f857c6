#!/usr/bin/env node
// pagerduty-move [--stack NAME] [--cwd DIR] [--dry-run]
// Moves a stack from the TypeScript SDK's dynamic providers (`pulumi-nodejs:dynamic/pagerduty:<Kind>`)
// to the package's types (`pagerduty-dynamic:index:<Kind>`) by its state, with no request that
// changes PagerDuty: an alias can rename a type but not move a resource to another provider without a
// replacement. In an order that never leaves an object in no state:
// 1. the stack config's `pagerduty:*` settings are copied to `pagerduty-dynamic:*`, each value on
//    stdin, secrets and credentials as secrets (a key already set there is kept);
// 2. each object is imported into the package's type under the same name and parent, by its kind's
//    import id (`<service id>/<id>` for a child: the definitions' `importId`), unprotected and with no
//    code written: one `pulumi import --file`, whose reads go through the package's plugin. An object
//    already imported under that URN (a run cut short) is not imported again;
// 3. only then are the dynamic resources, their lookups (functions in the package) and the dynamic
//    provider, once nothing uses it, deleted from the state (the objects stay).
// The program is changed by hand afterwards (docs/package.md, "Moving a stack from the dynamic
// types"). A kind with no import id (ServiceDependency) is dropped from the state and recorded again
// by the next `up`. Refused, with nothing changed: resources of a named account (the default
// provider imports in its own account) and protected resources.
import { type Checkpoint, type StateResource, urnName } from "../account/stack-state";
import { PagerDutyError } from "../errors";
import { accountOf } from "../kernel/account-input";
import { importIdOf } from "../kernel/define";
import { DOORS, recordedKind, recordedType } from "../kernel/recorded-type";
import { DEFAULT_ACCOUNT } from "../config";
import { RESOURCES, isResourceKind } from "../registry";
import { NAMESPACES, SETTING_NAMES, SETTINGS, type SettingName, type SettingSpec } from "../settings";
import { fill, STACK_FLAGS, type StackOptions, stackOptions } from "./command-line";
import { main, type Command } from "./main";
import { pulumiRunner, type Pulumi, withJsonFile } from "./pulumi-runner";
import { parseShown } from "./stack-config";

const HELP = `usage: pagerduty-move [--stack NAME] [--cwd DIR] [--dry-run]

${fill(`Moves a stack from the TypeScript SDK's dynamic providers (${recordedType("<Kind>")}) to the package's types
(${recordedType("<Kind>", "package")}) by its state, with no request that changes PagerDuty: it copies the stack
config's ${NAMESPACES.dynamic}:* settings to ${NAMESPACES.package}:* (secrets stay secret), imports each
object into the package's type under the same name (\`pulumi import\`, through the package's plugin, which must be on
PATH), and only then deletes the dynamic resources, their lookups and the dynamic provider from the state. Then change
the program to the package's SDK: \`pulumi preview\` shows no change. Resources of a named account and protected
resources are refused, and nothing is changed.`)}

Options:
  -s, --stack NAME  the stack to move (default: the selected stack)
  -C, --cwd DIR     the Pulumi project directory (default: the current directory)
  --dry-run         print the plan; change nothing
  -h, --help        show this help
  --version         show the version

Exit codes: 0 moved (or nothing to move), 1 refused or failed, 2 usage.`;

export type MoveOptions = StackOptions;

/** One entry of `pulumi import --file`: `parent` names an entry of the file's `nameTable`. */
export interface ImportEntry {
  type: string;
  name: string;
  id: string;
  parent?: string;
}

export interface MovePlan {
  /** Settings to copy: from `pagerduty:<name>` to `pagerduty-dynamic:<name>`. */
  settings: Array<{ from: string; to: string; secret: boolean }>;
  /** What `pulumi import --file` gets. */
  imports: { resources: ImportEntry[]; nameTable: Record<string, string> };
  /** URNs deleted from the state once the imports are done: the dynamic resources, lookups, then the provider. */
  forget: string[];
  /** Kinds with no import id, dropped from the state: the next `up` records them again. */
  recordedByUp: string[];
}

const DYNAMIC_PROVIDER = "pulumi:providers:pulumi-nodejs";
const LOOKUP = recordedType("Lookup");

/** The URN the same resource has with the package's type (the type is the last of the URN's qualified types). */
export function packageUrn(resource: StateResource, kind: string): string {
  const tail = `${resource.type}::${urnName(resource.urn)}`;
  return `${resource.urn.slice(0, resource.urn.length - tail.length)}${recordedType(kind, "package")}::${urnName(resource.urn)}`;
}

/** The id `pulumi import` takes for an object of `kind` (plugin/import-ids.ts reads the same definitions); undefined: none. */
export function importId(kind: string, resource: StateResource): string | undefined {
  return isResourceKind(kind) ? importIdOf(RESOURCES[kind].definition, String(resource.id ?? ""), resource.inputs) : undefined;
}

/** `pulumi config --json --show-secrets`, parsed. */
type StackConfigJson = Record<string, { value?: unknown; secret?: boolean } | undefined>;

const CONFIG_COMMAND = ["config", "--json", "--show-secrets"];

const parseConfig = (text: string) => parseShown(text || "{}", CONFIG_COMMAND.join(" ")) as StackConfigJson;

/**
 * The config's entries of the dynamic providers' plain settings; `accounts` is not moved. A secret
 * stays one, and a credential (the settings' `secret`) stored in plain text becomes one.
 */
function settingsToCopy(config: StackConfigJson): Array<{ from: string; to: string; secret: boolean }> {
  const names: readonly string[] = SETTING_NAMES;
  return Object.entries(config).flatMap(([key, entry]) => {
    const [namespace, name] = [key.slice(0, key.indexOf(":")), key.slice(key.indexOf(":") + 1)];
    if (namespace !== NAMESPACES.dynamic || !names.includes(name)) return [];
    const to = `${NAMESPACES.package}:${name}`;
    const credential = (SETTINGS[name as SettingName] as SettingSpec).secret === true;
    return to in config ? [] : [{ from: key, to, secret: Boolean(entry?.secret) || credential }];
  });
}

/** What moving `checkpoint` does by the stack's config (its JSON, or parsed); a PagerDutyError (nothing changed) for what it cannot move. */
export function planMove(checkpoint: Checkpoint, config: string | StackConfigJson): MovePlan {
  const resources = checkpoint.deployment?.resources ?? [];
  const inState = new Set(resources.map((r) => r.urn));
  const dynamic = resources.filter((r) => r.type.startsWith(DOORS.dynamic.typePrefix));
  const refused = dynamic.flatMap((r) => {
    if (r.protect) return [`${r.urn} is protected (pulumi state unprotect '${r.urn}')`];
    const account = accountOf(r.inputs);
    return account === DEFAULT_ACCOUNT ? [] : [`${r.urn} is in account "${account}" (the package imports in its default provider's account)`];
  });
  if (refused.length) throw new PagerDutyError("ERR_INPUT", `nothing was changed; cannot move:\n  ${refused.join("\n  ")}`);

  const nameTable: Record<string, string> = {};
  const parentName = (urn: unknown): string | undefined => {
    if (typeof urn !== "string" || urn.includes("::pulumi:pulumi:Stack::")) return undefined;
    const key = Object.keys(nameTable).find((k) => nameTable[k] === urn) ?? `parent${Object.keys(nameTable).length + 1}`;
    nameTable[key] = urn;
    return key;
  };
  const imports: ImportEntry[] = [];
  const recordedByUp: string[] = [];
  for (const r of dynamic) {
    const kind = recordedKind(r.type)!;
    if (r.type === LOOKUP || !r.id) continue;
    const id = importId(kind, r);
    if (id === undefined) recordedByUp.push(r.urn);
    else if (!inState.has(packageUrn(r, kind))) {
      const parent = parentName(r.parent);
      imports.push({ type: recordedType(kind, "package"), name: urnName(r.urn), id, ...(parent ? { parent } : {}) });
    }
  }
  // The state lists a resource after what it depends on: deleted last first.
  const forget = dynamic.map((r) => r.urn).reverse();
  const providers = resources.filter((r) => r.type === DYNAMIC_PROVIDER);
  const stillUsed = (p: StateResource) =>
    resources.some((r) => !forget.includes(r.urn) && typeof r.provider === "string" && r.provider.startsWith(`${p.urn}::`));
  forget.push(...providers.filter((p) => dynamic.some((r) => String(r.provider).startsWith(`${p.urn}::`)) && !stillUsed(p)).map((p) => p.urn));
  return {
    settings: settingsToCopy(typeof config === "string" ? parseConfig(config) : config),
    imports: { resources: imports, nameTable },
    forget,
    recordedByUp,
  };
}

/** Runs the move on the stack `pulumi` works on; `out` gets the report. */
export function move(opts: MoveOptions, out: (line: string) => void, pulumi: Pulumi = pulumiRunner({ cwd: opts.cwd, stack: opts.stack })): number {
  const checkpoint = JSON.parse(pulumi(["stack", "export"])) as Checkpoint;
  const config = parseConfig(pulumi(CONFIG_COMMAND));
  const plan = planMove(checkpoint, config);
  const { settings, imports, forget, recordedByUp } = plan;
  if (!forget.length) {
    out(`pagerduty-move: the stack holds no resource of the dynamic providers (${recordedType("<Kind>")}); nothing to move.`);
    return 0;
  }
  out(
    `pagerduty-move: ${settings.length} setting(s) to copy (${settings.map((s) => s.to).join(", ") || "none"}), ` +
      `${imports.resources.length} object(s) to import, ${forget.length} resource(s) to delete from the state (the objects stay).`,
  );
  for (const r of imports.resources) out(`  import ${r.type} ${r.name} ${r.id}`);
  for (const urn of forget) out(`  forget ${urn}`);
  if (opts.dryRun) {
    out("Dry run: nothing was changed.");
    return 0;
  }
  for (const s of settings) {
    // Every value goes on stdin, never on the command line (which other users can read).
    pulumi(["config", "set", ...(s.secret ? ["--secret"] : []), "--", s.to], String(config[s.from]?.value ?? ""));
  }
  if (imports.resources.length)
    withJsonFile("pagerduty-move-", imports, (file) =>
      pulumi(["import", "--file", file, "--protect=false", "--generate-code=false", "--yes", "--skip-preview"]),
    );
  pulumi(["state", "delete", "--yes", ...forget]);
  out(
    `Done: ${imports.resources.length} object(s) imported into the package's types, ` +
      `${forget.length} resource(s) of the dynamic providers deleted from the state. ` +
      `Now change the program to the package's SDK (docs/package-nodejs.md): \`pulumi preview\` shows no change` +
      (recordedByUp.length
        ? `, but for ${recordedByUp.map(urnName).join(", ")}, which the next \`pulumi up\` records again without a change in PagerDuty.`
        : "."),
  );
  return 0;
}

export const MOVE: Command<typeof STACK_FLAGS, MoveOptions> = {
  bin: "pagerduty-move",
  help: HELP,
  flags: STACK_FLAGS,
  options: stackOptions,
  run: async (opts, terminal) => move(opts, (line) => terminal.out(`${line}\n`)),
};

if (require.main === module) main(MOVE);
