// pagerduty:Lookup — the read-only queries behind the SDK's get* functions.
//
// Dynamic providers cannot serve invokes, and the SDK never does HTTP, so a lookup is a small
// resource whose provider performs the GET. Freshness without perpetual diffs: `check` (run on
// every preview and up) performs the query and puts the result into the checked inputs; `diff`
// reports a change only when that result differs from the one in state, and create/update just
// record it. `read` returns the state unchanged, so `refresh` never reports a lookup as drifted;
// the next preview or up queries again. Nothing remote is ever created, changed or deleted.
import { createHash } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { z } from "zod";
import type { AccountContext } from "../account/context";
import { isNotFound } from "../http/client";
import { fromApi } from "../kernel/case";
import { accountNameProblem } from "../config";
import { ConfigError } from "../errors";
import { checkInputs, holdsUnknown, toFailure, UNKNOWN, userInputs } from "../kernel/check";
import { ACCOUNT_INPUT, accountOf, withoutAccount } from "../kernel/account-input";
import { listCursor, listOffset, MAX_PAGE } from "../kernel/pages";
import { enablementOf, warningsOf, type ApiEnablement } from "./service-enablement";
import { getFieldValues } from "./service-custom-field-values";
import { servicesNamed, toOutputs as serviceOutputs } from "./service";
import { toOutputs as integrationOutputs } from "./service-integration";
import { type ApiSetting, settingsOf, toOutputs as settingOutputs } from "./alert-grouping-setting";
import {
  AUDIT_READ,
  auditRecordsPath,
  BUSINESS_SERVICES,
  enablementsPath,
  ESCALATION_POLICIES,
  POLICIES_READ,
  PRIORITIES,
  PRIORITIES_READ,
  READ,
  rulesPath,
  servicePath,
  VENDORS,
  VENDORS_READ,
} from "../kernel/api-paths";

const DAY_MS = 86_400_000;

const serviceId = z.string().min(1, "must be a service id");
const isoTime = z.string().refine((s) => !Number.isNaN(Date.parse(s)), "must be an ISO 8601 date-time");
const byService = z.object({ service: serviceId }).strict();

const auditArgs = z
  .object({
    service: serviceId,
    since: isoTime.optional(),
    until: isoTime.optional(),
    /** Page size for the cursor pagination (every page is read). */
    limit: z.number().int().min(1).max(MAX_PAGE).optional(),
  })
  .strict()
  .superRefine((a, ctx) => {
    if (a.since === undefined || a.until === undefined) return;
    const span = Date.parse(a.until) - Date.parse(a.since);
    if (span <= 0) ctx.addIssue({ code: "custom", path: ["until"], message: 'must be after "since"' });
    else if (span > 31 * DAY_MS) ctx.addIssue({ code: "custom", path: ["until"], message: 'may be at most 31 days after "since"' });
  });

const lookup = <Q extends string, A extends z.ZodTypeAny>(query: Q, args: A) =>
  z.object({ query: z.literal(query), args, result: z.unknown().optional() }).strict();

export const lookupInputs = z.discriminatedUnion("query", [
  lookup("service", z.object({ name: z.string().min(1, "must not be empty") }).strict()),
  lookup("escalationPolicy", z.object({ name: z.string().min(1, "must not be empty") }).strict()),
  lookup("vendor", z.object({ name: z.string().min(1, "must not be empty") }).strict()),
  lookup("priority", z.object({ name: z.string().min(1, "must not be empty") }).strict()),
  lookup("businessService", z.object({ name: z.string().min(1, "must not be empty") }).strict()),
  lookup("alertGroupingSetting", z.object({ name: z.string().min(1, "must not be empty") }).strict()),
  lookup("serviceIntegration", z.object({ service: serviceId, name: z.string().min(1, "must not be empty") }).strict()),
  lookup("serviceEventRules", byService),
  lookup("serviceEnablements", byService),
  lookup("serviceCustomFieldValues", byService),
  lookup("serviceAuditRecords", auditArgs),
]);

export type LookupInputs = z.infer<typeof lookupInputs>;

type Result = Record<string, unknown>;

/** The looked-up object does not exist: reported as a check failure on the argument. */
export class LookupMiss extends Error {
  constructor(
    readonly property: string,
    reason: string,
  ) {
    super(reason);
    this.name = "LookupMiss";
  }
}

/** Service-scoped GETs: a 404 means the service does not exist. */
async function forService<T>(service: string, get: () => Promise<T>): Promise<T> {
  try {
    return await get();
  } catch (e) {
    if (isNotFound(e)) throw new LookupMiss("args.service", `no service has id "${service}"`);
    throw e;
  }
}

interface Named {
  id: string;
  name?: string;
  summary?: string;
  [key: string]: unknown;
}

const nameOf = (o: Named) => o.name ?? o.summary ?? "";

/**
 * The one item named exactly `name`; else a miss listing what there is (vendor names are matched
 * case-insensitively when no exact match exists, as users type them: "datadog" for "Datadog").
 */
function byName<T extends Named>(items: T[], name: string, what: string, opts: { caseInsensitive?: boolean; hint?: string } = {}): T {
  const exact = items.filter((i) => nameOf(i) === name);
  const found = exact.length ? exact : opts.caseInsensitive ? items.filter((i) => nameOf(i).toLowerCase() === name.toLowerCase()) : [];
  if (found.length === 1) return found[0];
  const plural = what.endsWith("y") ? `${what.slice(0, -1)}ies` : `${what}s`;
  if (found.length > 1)
    throw new LookupMiss(
      "args.name",
      `${found.length} ${plural} are named "${name}" (${found.map((i) => i.id).join(", ")}); names must be unique to look one up`,
    );
  const names = items.map(nameOf).slice(0, 20);
  const known = names.length ? `; there are: ${names.map((n) => JSON.stringify(n)).join(", ")}${items.length > names.length ? ", ..." : ""}` : "";
  throw new LookupMiss(
    "args.name",
    `no ${what} is named "${name}"${opts.caseInsensitive ? "" : " (names match exactly, including case)"}${opts.hint ?? ""}${known}`,
  );
}

/** An integration as a lookup returns it: never its routing key (a secret; state would hold it in plain text). */
function integrationResult(i: Named, service: string): Result {
  const { integrationKey: _secret, ...rest } = integrationOutputs(i as unknown as Parameters<typeof integrationOutputs>[0], service);
  return { id: i.id, ...rest };
}

/** Runs one lookup against the API. */
export async function runLookup(ctx: AccountContext, inputs: LookupInputs): Promise<Result> {
  const { client } = ctx;
  switch (inputs.query) {
    case "service": {
      const { name } = inputs.args;
      const [found] = await servicesNamed<Parameters<typeof serviceOutputs>[0]>(client, name);
      if (!found) {
        throw new LookupMiss(
          "args.name",
          `no service is named "${name}" (names match exactly, including case; if this program creates it, pass the service in dependsOn)`,
        );
      }
      return { id: found.id, ...serviceOutputs(found) };
    }
    case "escalationPolicy": {
      const { name } = inputs.args;
      const policies = await listOffset<Named>(client, ESCALATION_POLICIES, "escalation_policies", POLICIES_READ, { query: name });
      const p = byName(policies, name, "escalation policy");
      return {
        id: p.id,
        name: nameOf(p),
        description: p.description ?? null,
        numLoops: p.num_loops ?? null,
        htmlUrl: p.html_url ?? "",
        summary: p.summary ?? nameOf(p),
      };
    }
    case "vendor": {
      const { name } = inputs.args;
      const vendors = await listOffset<Named>(client, VENDORS, "vendors", VENDORS_READ, { query: name });
      const v = byName(vendors, name, "vendor", { caseInsensitive: true });
      return { id: v.id, name: nameOf(v), summary: v.summary ?? nameOf(v), description: v.description ?? null, websiteUrl: v.website_url ?? null };
    }
    case "priority": {
      const { name } = inputs.args;
      const p = byName(await listOffset<Named>(client, PRIORITIES, "priorities", PRIORITIES_READ), name, "priority");
      return { id: p.id, name: nameOf(p), description: p.description ?? null, summary: p.summary ?? nameOf(p) };
    }
    case "businessService": {
      // The listing takes no `query`: every page is read and the name matched here, exactly (as Terraform's data source does).
      const { name } = inputs.args;
      const b = byName(await listOffset<Named>(client, BUSINESS_SERVICES, "business_services", READ), name, "business service");
      const team = b.team as { id?: string } | null | undefined;
      return {
        id: b.id,
        type: "business_service",
        name: nameOf(b),
        summary: b.summary ?? nameOf(b),
        description: b.description ?? null,
        pointOfContact: b.point_of_contact ?? null,
        team: team?.id ?? null,
      };
    }
    case "alertGroupingSetting": {
      // Names are not unique here (the API allows two settings of one name): a repeated name is reported, not guessed.
      const { name } = inputs.args;
      const settings = (await settingsOf(client)) as Array<ApiSetting & Named>;
      const g = byName(settings, name, "alert grouping setting", { hint: " (if this program creates it, pass it in dependsOn)" });
      return { id: g.id, ...settingOutputs(g) };
    }
    case "serviceIntegration": {
      const { service, name } = inputs.args;
      const reply = await forService(service, () =>
        client.request<{ service: { integrations?: Named[] } }>("GET", servicePath(service), { query: { include: ["integrations"] }, scopes: READ }),
      );
      const i = byName(reply.service.integrations ?? [], name, "integration of the service", { hint: " (if this program creates it, pass it in dependsOn)" });
      return integrationResult(i, service);
    }
    case "serviceEventRules": {
      const { service } = inputs.args;
      const rules = await forService(service, () => listOffset<Record<string, unknown>>(client, rulesPath(service), "rules", READ));
      return { rules: rules.map((r) => fromApi(r)) };
    }
    case "serviceEnablements": {
      const { service } = inputs.args;
      const reply = await forService(service, () => client.request<{ enablements?: ApiEnablement[] }>("GET", enablementsPath(service), { scopes: READ }));
      const list = (reply?.enablements ?? []).filter((e) => typeof e?.feature === "string");
      return {
        enablements: list.map((e) => {
          const one = enablementOf({ enablement: e }, e.feature!)!;
          return { feature: e.feature, enabled: one.enabled, updatedAt: one.updated_at ?? null, warnings: warningsOf(one) };
        }),
      };
    }
    case "serviceCustomFieldValues": {
      const { service } = inputs.args;
      const fields = await forService(service, () => getFieldValues(client, service));
      return {
        values: Object.fromEntries(fields.map((f) => [f.name, f.value ?? null])),
        fields: fields.map((f) => fromApi({ ...f, value: f.value ?? null })),
      };
    }
    case "serviceAuditRecords": {
      const { service, since, until, limit } = inputs.args;
      const records = await forService(service, () =>
        listCursor<Record<string, unknown>>(client, auditRecordsPath(service), "records", AUDIT_READ, { since, until }, limit),
      );
      return { records: records.map((r) => fromApi(r)) };
    }
  }
}

/** The lookup's own inputs: without the account it runs in. */
const queryOf = (news: Record<string, unknown>) => userInputs(withoutAccount(news)) as LookupInputs;

/** The account a lookup names, as its outputs keep it (absent: the default account). */
const accountField = (news: Record<string, unknown>) => (typeof news?.[ACCOUNT_INPUT] === "string" ? { [ACCOUNT_INPUT]: news[ACCOUNT_INPUT] } : {});

/** The engine's provider for lookups; `contextOf` gives the context of the account a query names. */
export function lookupProvider(contextOf: (account: string) => AccountContext): dynamic.ResourceProvider {
  return {
    async check(_olds, news) {
      if (holdsUnknown(userInputs(news).args) || news?.[ACCOUNT_INPUT] === UNKNOWN) return { inputs: news }; // queried once the arguments are known
      const problem = news?.[ACCOUNT_INPUT] === undefined ? undefined : accountNameProblem(news[ACCOUNT_INPUT]);
      if (problem) return { inputs: news, failures: [toFailure([ACCOUNT_INPUT], problem)] };
      const checked = checkInputs(lookupInputs, { ...withoutAccount(news), result: undefined });
      if (checked.failures?.length) return checked;
      try {
        const result = await runLookup(contextOf(accountOf(news)), checked.inputs as LookupInputs);
        return { inputs: { ...checked.inputs, ...accountField(news), result } };
      } catch (e) {
        if (e instanceof LookupMiss) return { inputs: news, failures: [toFailure(e.property.split("."), e.message)] };
        if (e instanceof ConfigError) return { inputs: news, failures: [toFailure([], e.message)] };
        throw e;
      }
    },

    async diff(_id, olds, news) {
      const changed = ["query", "args", "result"].some((k) => !isDeepStrictEqual(olds[k], news[k])) || accountOf(olds) !== accountOf(news);
      return { changes: changed, replaces: [], deleteBeforeReplace: false };
    },

    async create(news) {
      const inputs = queryOf(news);
      const account = accountOf(news);
      const digest = createHash("sha256")
        .update(JSON.stringify([inputs.query, inputs.args, account]))
        .digest("hex")
        .slice(0, 16);
      return { id: `${inputs.query}:${digest}`, outs: { ...(await record(contextOf(account), inputs)), ...accountField(news) } };
    },

    async read(id, props) {
      return { id, props };
    },

    async update(_id, _olds, news) {
      return { outs: { ...(await record(contextOf(accountOf(news)), queryOf(news))), ...accountField(news) } };
    },

    async delete() {
      // Nothing remote belongs to a lookup.
    },
  };
}

/** Outputs: what check found (queried here only if check could not, e.g. for an older state). */
async function record(ctx: AccountContext, inputs: LookupInputs) {
  return { query: inputs.query, args: inputs.args, result: inputs.result ?? (await runLookup(ctx, inputs)) };
}
