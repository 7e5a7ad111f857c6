// Renders a Pulumi TypeScript program that adopts existing services and their children. Pure: it
// takes what the API returned and produces source text. Every argument is validated against the
// resource's own input schema, so the program passes `check`; a value the schema refuses (e.g. a
// server field shape it does not model) is left out, which means "not managed", and named in a
// comment. The values are the objects' current ones, so adopting changes nothing remote.
import type { z } from "zod";
import { ACCOUNTS_KEY } from "../config";
import { ACCOUNT_INPUT } from "../kernel/account-input";
import { fromApi } from "../kernel/case";
import { declaredView, inputShape, type ResourceDefinition } from "../kernel/define";
import { definition as serviceDefinition, serviceInputs } from "../resources/service";
import { customFieldValuesInputs, type ApiFieldValue } from "../resources/service-custom-field-values";
import { enablementInputs, FEATURES, type ApiEnablement } from "../resources/service-enablement";
import { definition as ruleDefinition, ruleInputs, toOutputs as ruleOutputs } from "../resources/service-event-rule";
import { definition as integrationDefinition, integrationInputs, toOutputs as integrationOutputs } from "../resources/service-integration";

// biome-ignore lint/suspicious/noExplicitAny: the API's JSON as it came, read field by field by the resources' mappers
type Raw = Record<string, any>;

/** What the API holds for one service. */
export interface ServiceSnapshot {
  service: Raw;
  integrations: Raw[];
  rules: Raw[];
  customFields: ApiFieldValue[];
  enablements: ApiEnablement[];
}

/** The inputs a program declares for an adopted object: every input but the adoption id and the parent (a reference). */
const declaredKeys = (d: ResourceDefinition) => Object.keys(inputShape(d)).filter((k) => !(d.diffIgnore ?? []).includes(k) && k !== "service");
const SERVICE_KEYS = declaredKeys(serviceDefinition);
const INTEGRATION_KEYS = declaredKeys(integrationDefinition);
const RULE_KEYS = declaredKeys(ruleDefinition);

/** Source code placed verbatim (a reference to another resource). */
class Code {
  constructor(readonly text: string) {}
}

/** A placeholder id used only to validate arguments whose service is a reference. */
const PLACEHOLDER = "PLACEHOLDER";

export interface Adoptable {
  args: Record<string, unknown>;
  /** Values (other than null) left out because the schema refuses them, with the reason. */
  dropped: Array<{ key: string; reason: string }>;
}

/**
 * The arguments `schema` accepts: `fixed` as given, `values[keys]` unless refused (then dropped,
 * one at a time, so one odd field does not cost the others).
 */
export function adoptable(schema: z.ZodTypeAny, fixed: Record<string, unknown>, values: Record<string, unknown>, keys: readonly string[]): Adoptable {
  const args: Record<string, unknown> = { ...fixed };
  for (const k of keys) if (values[k] !== undefined) args[k] = values[k];
  const dropped: Adoptable["dropped"] = [];
  for (;;) {
    const parsed = schema.safeParse(args);
    if (parsed.success) return { args, dropped };
    const issue = parsed.error.issues.find((i) => typeof i.path[0] === "string" && keys.includes(i.path[0]) && i.path[0] in args);
    if (!issue) throw new Error(`cannot adopt: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(inputs)"}: ${i.message}`).join("; ")}`);
    const key = issue.path[0] as string;
    // A refused null is the API's "none": leaving it unmanaged says the same, so no note.
    if (args[key] !== null) dropped.push({ key, reason: `${issue.path.join(".")}: ${issue.message}` });
    delete args[key];
  }
}

/** A TypeScript literal; object keys unquoted where they are identifiers. */
export function literal(v: unknown, indent = ""): string {
  if (v instanceof Code) return v.text;
  const inner = `${indent}  `;
  if (Array.isArray(v)) return v.length ? `[\n${v.map((x) => inner + literal(x, inner)).join(",\n")},\n${indent}]` : "[]";
  if (v !== null && typeof v === "object") {
    const entries = Object.entries(v).filter(([, x]) => x !== undefined);
    if (!entries.length) return "{}";
    const key = (k: string) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k));
    return `{\n${entries.map(([k, x]) => `${inner}${key(k)}: ${literal(x, inner)}`).join(",\n")},\n${indent}}`;
  }
  return JSON.stringify(v ?? null);
}

/** Unique resource names and variable names derived from object names. */
class Names {
  private readonly used = new Set<string>();
  unique(base: string): string {
    let name = base;
    for (let n = 2; this.used.has(name); n++) name = `${base}-${n}`;
    this.used.add(name);
    return name;
  }
}

export const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "") || "service";

const identifier = (resourceName: string) => {
  const camel = resourceName.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  return /^[a-z_$]/i.test(camel) ? camel : `s${camel}`;
};

/** How a program is rendered. */
export interface RenderOptions {
  /** The named account (of `pagerduty:accounts`) every resource is declared in; unset: the default account. */
  account?: string;
}

/** The arguments with the account last: the schemas validate the resource's own fields only. */
const inAccount = (args: Record<string, unknown>, account: string | undefined) => (account === undefined ? args : { ...args, [ACCOUNT_INPUT]: account });

function servicePart(s: ServiceSnapshot, names: Names, account: string | undefined): string {
  const resource = (cls: string, name: string, a: Adoptable, varName?: string) => {
    const notes = a.dropped.map((d) => `// not managed (${d.reason})\n`).join("");
    return `${notes}${varName ? `const ${varName} = ` : ""}new pagerduty.${cls}(${JSON.stringify(name)}, ${literal(inAccount(a.args, account))});\n`;
  };
  const svc = s.service;
  const base = names.unique(slug(String(svc.name ?? svc.id)));
  const ref = identifier(base);
  const serviceRef = new Code(`${ref}.id`);
  // A busy service's computed status is declared as the program would: enabled ("active").
  const asDeclared = declaredView(serviceDefinition);
  const live = { ...fromApi<Record<string, unknown>>(svc), escalationPolicy: svc.escalation_policy?.id };
  const values = Object.fromEntries(Object.entries(live).map(([k, v]) => [k, asDeclared(k, v)]));
  const parts = [`// ${svc.name} (${svc.id})\n`, resource("Service", base, adoptable(serviceInputs, { adoptId: svc.id }, values, SERVICE_KEYS), ref)];

  // Children are validated with a placeholder service id, then printed with the reference.
  const child = (cls: string, name: string, schema: z.ZodTypeAny, fixed: Record<string, unknown>, vals: Record<string, unknown>, keys: readonly string[]) => {
    const a = adoptable(schema, { service: PLACEHOLDER, ...fixed }, vals, keys);
    parts.push(resource(cls, names.unique(name), { ...a, args: { ...a.args, service: serviceRef } }));
  };

  for (const i of s.integrations) {
    child(
      "ServiceIntegration",
      `${base}-${slug(String(i.name ?? i.summary ?? i.type))}`,
      integrationInputs,
      { adoptId: i.id },
      integrationOutputs(i as never, svc.id),
      INTEGRATION_KEYS,
    );
  }
  const rules = [...s.rules].sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
  rules.forEach((r, n) => child("ServiceEventRule", `${base}-rule-${n}`, ruleInputs, { adoptId: r.id }, ruleOutputs(r as never, svc.id), RULE_KEYS));
  // Fields without a value are left unmanaged; managing them would only pin them to empty.
  const set = s.customFields.filter((f) => f.value !== null && f.value !== undefined);
  if (set.length)
    child(
      "ServiceCustomFieldValues",
      `${base}-custom-fields`,
      customFieldValuesInputs,
      { values: Object.fromEntries(set.map((f) => [f.name, f.value])) },
      {},
      [],
    );
  for (const e of s.enablements) {
    if (typeof e.feature === "string" && (FEATURES as readonly string[]).includes(e.feature)) {
      child("ServiceEnablement", `${base}-${e.feature}`, enablementInputs, { feature: e.feature, enabled: e.enabled }, {}, []);
    }
  }
  return parts.join("");
}

/** The whole program. `source` says where the data came from (a URL without credentials). */
export function renderProgram(snapshots: readonly ServiceSnapshot[], source: string, options: RenderOptions = {}): string {
  const names = new Names();
  const { account } = options;
  const header =
    `// Generated by pagerduty-adopt from ${source}${account === undefined ? "" : ` (account "${account}")`}.\n` +
    (account === undefined ? "" : `// Every resource is in account "${account}": the stack config must declare "${ACCOUNTS_KEY}.${account}".\n`) +
    "// Each resource adopts an existing object (adoptId) or, for custom field values and enablements,\n" +
    "// starts managing the current setting. The values below are the current ones, so the first\n" +
    "// `pulumi up` creates nothing and changes nothing remote. Destroying the stack deletes the adopted\n" +
    "// services; use `pulumi state delete` first for anything that must outlive the stack.\n" +
    'import * as pagerduty from "pulumi-pagerduty-dynamic";\n';
  return [header, ...snapshots.map((s) => servicePart(s, names, account))].join("\n");
}
