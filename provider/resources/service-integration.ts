// pagerduty:ServiceIntegration — an integration of a service (`/services/{service}/integrations`).
// The Pulumi id is the integration id alone; `service` stays in the outputs for read and delete, so
// neither the id nor any URL ever carries the routing key. `integrationKey` is an output only, made
// secret by the SDK class (additionalSecretOutputs): dynamic providers cannot return secrets.
import { z } from "zod";
import type { AccountContext } from "../account/context";
import { listedIntegration, type ListedService } from "../account/listings";
import { PagerDutyError, ScopeError, messageOf } from "../errors";
import type { ApiClient } from "../http/client";
import { fromApi, toApi } from "../kernel/case";
import { toFailure, UNKNOWN, userInputs } from "../kernel/check";
import { defineResource, diffRules, named, type OutputsOf } from "../kernel/define";
import { diffManaged, unsatisfied } from "../kernel/diff";
import type { Resource } from "../operations/resource";
import { orGone, parentService } from "../kernel/gone";
import { listOffset } from "../kernel/pages";
import { createOnce } from "../operations/recovery";
import { childrenLike } from "./audit-records";
import { integrationsPath, READ, SERVICES, servicePath, WRITE } from "../kernel/api-paths";

export const EMAIL_TYPE = "generic_email_inbound_integration";

const filterMode = z.enum(["match", "no-match", "always"]);
const regex = z.string().nullable().optional();
const emailFilter = z
  .object({
    subjectMode: filterMode.describe('Which subjects pass: "match" the regex, "no-match" it, or "always".'),
    subjectRegex: regex.describe('The subject regex, with subjectMode "match" or "no-match".'),
    bodyMode: filterMode.describe('Which bodies pass: "match" the regex, "no-match" it, or "always".'),
    bodyRegex: regex.describe('The body regex, with bodyMode "match" or "no-match".'),
    fromEmailMode: filterMode.describe('Which senders pass: "match" the regex, "no-match" it, or "always".'),
    fromEmailRegex: regex.describe('The sender regex, with fromEmailMode "match" or "no-match".'),
  })
  .strict();

const part = z.enum(["body", "subject", "from_addresses"]);
export type Predicate = {
  type: "all" | "any" | "not" | "contains" | "exactly" | "regex";
  matcher?: string;
  part?: "body" | "subject" | "from_addresses";
  children?: Predicate[];
};
const predicate: z.ZodType<Predicate> = named(
  "EmailMatchPredicate",
  z
    .lazy(() =>
      z
        .object({
          type: z
            .enum(["all", "any", "not", "contains", "exactly", "regex"])
            .describe('"all", "any" and "not" combine `children`; "contains", "exactly" and "regex" test `part` against `matcher`.'),
          matcher: z.string().optional().describe("The text or regex a leaf predicate looks for."),
          part: part.optional().describe("The part of the email a leaf predicate tests."),
          children: z.array(predicate).optional().describe('The predicates "all", "any" and "not" combine.'),
        })
        .strict(),
    )
    .describe("A node of an email parser's match predicate; `all`/`any`/`not` combine `children`."),
);
const emailParser = z
  .object({
    action: z.enum(["trigger", "resolve"]).describe("What a matching email does: trigger an alert or resolve one."),
    matchPredicate: predicate,
    valueExtractors: z
      .array(
        z
          .object({
            type: z.enum(["entire", "regex", "between"]).describe("Extract the entire part, a regex match, or the text between two strings."),
            part: part.describe("The part of the email the value is taken from."),
            valueName: z.string().min(1).describe('The name of the value; "incident_key" deduplicates.'),
            regex: z.string().optional().describe('The regex, with type "regex".'),
            startsAfter: z.string().optional().describe('The text before the value, with type "between".'),
            endsBefore: z.string().optional().describe('The text after the value, with type "between".'),
          })
          .strict(),
      )
      .optional()
      .describe("Values taken from a matching email."),
  })
  .strict();

/** The API's integration types (its description's enum); a vendor's integration takes the vendor's type. */
export const INTEGRATION_TYPES = [
  "events_api_v2_inbound_integration",
  "generic_events_api_inbound_integration",
  EMAIL_TYPE,
  "event_transformer_api_inbound_integration",
  "aws_cloudwatch_inbound_integration",
  "cloudkick_inbound_integration",
  "keynote_inbound_integration",
  "nagios_inbound_integration",
  "pingdom_inbound_integration",
  "sql_monitor_inbound_integration",
] as const;

/** Settings the API accepts only on the email type. */
const EMAIL_SETTINGS = ["integrationEmail", "emailIncidentCreation", "emailFilterMode", "emailFilters", "emailParsers", "emailParsingFallback"] as const;

export const integrationInputs = z
  .object({
    service: z.string().min(1, "must be a service id").describe("Id of the service. Changing it replaces the integration."),
    type: z
      .string()
      // A string in the SDK (a new API type needs no new SDK), checked against the known types here.
      .refine(
        (t) => (INTEGRATION_TYPES as readonly string[]).includes(t),
        (t) => ({
          message: `${JSON.stringify(t)} is not an integration type; the types are: ${INTEGRATION_TYPES.join(", ")} (or set \`vendor\` instead)`,
        }),
      )
      .optional()
      .describe(
        [
          "Integration type. Set exactly one of `type` and `vendor`; changing it replaces the integration.",
          "- `events_api_v2_inbound_integration`: Events API v2 (routing key in `integrationKey`)",
          "- `generic_events_api_inbound_integration`: Events API v1",
          "- `generic_email_inbound_integration`: email; the only type taking the `email*` settings and",
          "  `integrationEmail`, and the only one without an `integrationKey`",
          "- `event_transformer_api_inbound_integration`: Custom Event Transformer",
          "- `aws_cloudwatch_inbound_integration`, `cloudkick_inbound_integration`,",
          "  `keynote_inbound_integration`, `nagios_inbound_integration`, `pingdom_inbound_integration`,",
          "  `sql_monitor_inbound_integration`: the monitoring tools they name",
        ].join("\n"),
      ),
    vendor: z
      .string()
      .min(1)
      .optional()
      .describe("Id of a vendor (the API derives the type). Set exactly one of `type` and `vendor`; changing it replaces the integration."),
    name: z.string().trim().min(1, "must not be empty").max(255).optional().describe("Unset: not managed (the API names it after the type)."),
    integrationEmail: z
      .string()
      .regex(/^[^@\s]+@[^@\s]+$/, "must be an email address")
      .optional()
      .describe("Type `generic_email_inbound_integration` only: the inbound address. Unset: generated by the API."),
    emailIncidentCreation: z
      .enum(["on_new_email", "on_new_email_subject", "only_if_no_open_incidents", "use_rules"])
      .optional()
      .describe("Type `generic_email_inbound_integration` only: when an email opens an incident."),
    emailFilterMode: z
      .enum(["all-email", "or-rules-email", "and-rules-email"])
      .optional()
      .describe("Type `generic_email_inbound_integration` only: which emails `emailFilters` let through."),
    emailFilters: z
      .array(emailFilter)
      .optional()
      .describe("Type `generic_email_inbound_integration` only: subject, body and sender filters (each mode required)."),
    emailParsers: z
      .array(emailParser)
      .optional()
      .describe("Type `generic_email_inbound_integration` only: rules that trigger or resolve from an email's content."),
    emailParsingFallback: z
      .enum(["open_new_incident", "discard"])
      .optional()
      .describe("Type `generic_email_inbound_integration` only: what happens to an email no parser matched."),
    adoptId: z
      .string()
      .min(1)
      .optional()
      .describe("Adopt the existing integration with this id (of `service`) instead of creating one; its managed fields are set to the declared values."),
  })
  .strict()
  .superRefine((v, ctx) => {
    if ((v.type === undefined) === (v.vendor === undefined)) {
      ctx.addIssue({ code: "custom", path: [v.type === undefined ? "type" : "vendor"], message: 'set exactly one of "type" and "vendor"' });
    }
    for (const key of EMAIL_SETTINGS) {
      if (v[key] !== undefined && v.type !== EMAIL_TYPE) {
        ctx.addIssue({ code: "custom", path: [key], message: `applies only to type "${EMAIL_TYPE}"` });
      }
    }
  });

export type IntegrationInputs = z.infer<typeof integrationInputs>;

const shape = integrationInputs.innerType().shape;
export const definition = defineResource({
  kind: "ServiceIntegration",
  description:
    "An integration of a PagerDuty service. `integrationKey` (the routing key of events types) is a\n" +
    "Pulumi secret: it is stored encrypted in the state and masked in CLI output.",
  notes:
    "`integrationKey` is a Pulumi secret output (encrypted in state, `[secret]` in output). Delete calls DELETE; 404 means gone. " +
    "Types: see [Integration types](#integration-types).",
  inputs: integrationInputs,
  outputs: z.object({
    service: z.string(),
    type: z.string().describe("The integration's type (derived by the API when `vendor` was set)."),
    vendor: z.string().nullable(),
    name: z.string(),
    integrationEmail: z.string().nullable(),
    emailIncidentCreation: shape.emailIncidentCreation.unwrap().nullable(),
    emailFilterMode: shape.emailFilterMode.unwrap().nullable(),
    emailFilters: z.array(emailFilter).nullable(),
    emailParsers: z.array(emailParser).nullable(),
    emailParsingFallback: shape.emailParsingFallback.unwrap().nullable(),
    integrationKey: z.string().nullable().describe("The routing key events are sent with; unset for types without one (email)."),
    htmlUrl: z.string().describe("The integration's page in the PagerDuty web app."),
    summary: z.string().describe("A short text the API gives the integration (its name)."),
    createdAt: z.string().describe("When the integration was created (ISO 8601)."),
  }),
  replaceOn: ["service", "type", "vendor"],
  diffIgnore: ["adoptId"],
  secretOutputs: ["integrationKey"],
  creates: true,
  importId: "<service id>/<id>",
  uniqueInAccount: "integrationEmail",
});

type IntegrationOutputs = OutputsOf<typeof definition>;
const rules = diffRules(definition);

export interface ApiIntegration {
  id: string;
  type: string;
  name?: string;
  summary?: string;
  html_url?: string | null;
  created_at?: string;
  service?: { id: string } | null;
  vendor?: { id: string } | null;
  integration_key?: string;
  integration_email?: string;
  email_incident_creation?: string;
  email_filter_mode?: string;
  email_filters?: unknown[];
  email_parsers?: unknown[];
  email_parsing_fallback?: string;
}

/** Live integration -> Pulumi outputs. Settings a type does not have are null (the state leaves them out: kernel/unset.ts). */
export function toOutputs(i: ApiIntegration, service: string): IntegrationOutputs {
  return {
    service: i.service?.id ?? service,
    type: i.type,
    vendor: i.vendor?.id ?? null,
    name: i.name ?? i.summary ?? "",
    integrationEmail: i.integration_email ?? null,
    emailIncidentCreation: (i.email_incident_creation ?? null) as IntegrationOutputs["emailIncidentCreation"],
    emailFilterMode: (i.email_filter_mode ?? null) as IntegrationOutputs["emailFilterMode"],
    emailFilters: i.email_filters ? fromApi(i.email_filters) : null,
    emailParsers: i.email_parsers ? fromApi(i.email_parsers) : null,
    emailParsingFallback: (i.email_parsing_fallback ?? null) as IntegrationOutputs["emailParsingFallback"],
    integrationKey: i.integration_key ?? null,
    htmlUrl: i.html_url ?? "",
    summary: i.summary ?? i.name ?? "",
    createdAt: i.created_at ?? "",
  };
}

/** Managed inputs -> request body; references as `{id, type}`. `type` only on create. */
export function toBody(inputs: Partial<IntegrationInputs>, opts: { includeType: boolean }): Record<string, unknown> {
  const { service, vendor, type, adoptId: _adopt, ...rest } = inputs;
  const body: Record<string, unknown> = toApi(rest);
  if (opts.includeType && type !== undefined) body.type = type;
  if (vendor !== undefined) body.vendor = { id: vendor, type: "vendor_reference" };
  if (service !== undefined) body.service = { id: service, type: "service_reference" };
  return body;
}

const path = integrationsPath;

async function get(client: ApiClient, service: string, id: string): Promise<ApiIntegration> {
  return (await client.request<{ integration: ApiIntegration }>("GET", path(service, id), { scopes: READ })).integration;
}

async function put(client: ApiClient, service: string, id: string, inputs: Partial<IntegrationInputs>): Promise<IntegrationOutputs> {
  const res = await client.request<{ integration: ApiIntegration }>("PUT", path(service, id), {
    body: { integration: toBody(inputs, { includeType: false }) },
    scopes: WRITE,
  });
  return toOutputs(res.integration, service);
}

/** The declared identity of an integration: its type or vendor, and its name when set. */
/** Ids of the integrations of the declared service whose identifying inputs match (type, name, vendor). */
export async function integrationsLike(client: ApiClient, inputs: IntegrationInputs): Promise<string[]> {
  const svc = await orGone(() => client.request<{ service: { integrations?: Array<{ id: string }> } }>("GET", servicePath(inputs.service), { scopes: READ }));
  const out: string[] = [];
  for (const ref of svc?.service.integrations ?? []) {
    const found = await orGone(() => get(client, inputs.service, ref.id));
    if (found && sameIdentity(inputs)(found)) out.push(found.id);
  }
  return out;
}

export const sameIdentity = (inputs: IntegrationInputs) => (i: ApiIntegration) =>
  (inputs.type === undefined || i.type === inputs.type) &&
  (inputs.vendor === undefined || i.vendor?.id === inputs.vendor) &&
  (inputs.name === undefined || i.name === inputs.name);

const serviceOf = (props: Record<string, unknown> | undefined, id: string) => parentService(props, `integration ${id}`);

// ---- checks at preview ------------------------------------------------------------------------

interface AddressHolder {
  id: string;
  service: string;
  serviceName?: string;
}

/**
 * The inbound addresses the account's integrations use (lower case), listed once per process:
 * undefined when they cannot be read here (the create then finds out).
 */
function accountAddresses(ctx: AccountContext): Promise<Map<string, AddressHolder> | undefined> {
  return ctx.once("integration-addresses", async () => {
    try {
      const services = await listOffset<ListedService & { name?: string }>(ctx.client, SERVICES, "services", READ, { "include[]": ["integrations"] });
      const found = new Map<string, AddressHolder>();
      for (const s of services) {
        for (const i of (s.integrations ?? []) as ApiIntegration[]) {
          if (i.integration_email) found.set(i.integration_email.toLowerCase(), { id: i.id, service: s.id, ...(s.name ? { serviceName: s.name } : {}) });
        }
      }
      return found;
    } catch (e) {
      if (!(e instanceof ScopeError))
        await ctx.warn(`integrationEmail: the account's addresses could not be checked at preview (${messageOf(e)}); the create at \`up\` checks it`);
      return undefined;
    }
  });
}

/**
 * Why `email` cannot be this integration's: another integration of the account has it. The
 * integration being adopted has it by right, as may the one an interrupted create of this resource
 * made (the journal knows the create); one of this stack is named with its resource.
 */
async function addressTaken(ctx: AccountContext, email: string, news: { adoptId?: string; __origin?: string }): Promise<string | undefined> {
  const holder = (await accountAddresses(ctx))?.get(email.toLowerCase());
  if (!holder || holder.id === news.adoptId) return undefined;
  // An interrupted create of this resource (its reply named the object, or never came) is recovery's to sort out.
  const interrupted = typeof news.__origin === "string" ? ctx.journal.load(news.__origin) : undefined;
  if (interrupted && (interrupted.id === undefined || interrupted.id === holder.id)) return undefined;
  const resource = await ctx.stack?.holding("ServiceIntegration", holder.id).catch(() => undefined);
  // This resource's own object, which its replacement (a move to another service) deletes first (see diff).
  if (resource?.origin !== undefined && resource.origin === originHash(news.__origin)) return undefined;
  const where = `integration ${holder.id} of service ${holder.service}${holder.serviceName ? ` ("${holder.serviceName}")` : ""}`;
  return (
    `${JSON.stringify(email)} is already the address of ${where}` +
    (resource
      ? `, which resource ${resource.urn} of this stack manages: an address belongs to one integration, and a deployment creates before it deletes. ` +
        "Move the address in two deployments: take it off that resource (or remove the resource) and run `pulumi up`, then declare it here"
      : `: an address belongs to one integration of the account. Choose another address, or adopt that integration with \`adoptId\``)
  );
}

/** The provenance hash of an `__origin` (the program may append its stack's name: sdk/origin.ts). */
const originHash = (origin: unknown) => (typeof origin === "string" ? origin.split("@")[0] : undefined);

export const resource: Resource<typeof definition> = {
  definition,

  subject: (id, props) => `integration ${id} of service ${serviceOf(props, id)} (or the service)`,

  describe: (inputs) => `integration of service ${inputs.service}`,

  // Taken as check left them when the create began; a secret there (an encrypted object) matches nothing.
  findExisting: (client, inputs) => integrationsLike(client, inputs as IntegrationInputs),

  diff(olds, news) {
    const result = diffManaged(olds, news, rules);
    // A fixed address belongs to one integration: a move to another service must free it before the
    // new integration takes it, so the old one is deleted first (the address is dead only in between).
    const keepsAddress = typeof news.integrationEmail === "string" && news.integrationEmail.toLowerCase() === olds.integrationEmail?.toLowerCase();
    return result.replaces?.length && keepsAddress ? { ...result, deleteBeforeReplace: true } : result;
  },

  async verify(ctx, news, olds) {
    const email = news.integrationEmail;
    // Only an address the integration does not have yet can be someone else's (no request otherwise).
    if (email === undefined || email === UNKNOWN || email === olds.integrationEmail) return [];
    const taken = await addressTaken(ctx, email, news);
    return taken ? [toFailure(["integrationEmail"], taken)] : [];
  },

  async adopt(ctx, id, news) {
    const inputs = userInputs(news);
    const found = await get(ctx.client, inputs.service, id);
    // The API cannot change a type; adopting the wrong kind must fail before anything is written.
    if (inputs.type !== undefined && found.type !== inputs.type) {
      throw new PagerDutyError("ERR_INPUT", `cannot adopt integration ${found.id}: its "type" is "${found.type}", the program declares "${inputs.type}"`);
    }
    const live = toOutputs(found, inputs.service);
    const differs = unsatisfied(live, inputs, rules);
    return { id: found.id, outs: Object.keys(differs).length ? await put(ctx.client, inputs.service, found.id, differs) : live };
  },

  async create(ctx, news) {
    const { client } = ctx;
    const inputs = userInputs(news);
    // An interrupted earlier create may have made this integration already: adopt it rather than add a second one.
    const outcome = await createOnce(ctx, {
      definition,
      origin: news.__origin,
      what: `integration${inputs.name ? ` "${inputs.name}"` : ""} of service ${inputs.service}`,
      parent: inputs.service,
      post: async () => {
        const res = await client.request<{ integration: ApiIntegration }>("POST", path(inputs.service), {
          body: { integration: toBody(inputs, { includeType: true }) },
          scopes: WRITE,
        });
        return { id: res.integration.id, value: res.integration };
      },
      exists: async (id) => (await orGone(() => get(client, inputs.service, id))) !== undefined,
      find: (since) => childrenLike(client, inputs.service, /integration_reference$/, since, (id) => get(client, inputs.service, id), sameIdentity(inputs)),
      findExisting: () => integrationsLike(client, inputs),
    });
    if ("adopted" in outcome) return { id: outcome.id, outs: await put(client, inputs.service, outcome.id, inputs) };
    return { id: outcome.id, outs: toOutputs(outcome.created, inputs.service) };
  },

  async read(ctx, id, props) {
    const service = serviceOf(props, id);
    const found = await ctx.listings.service(
      service,
      (s) => listedIntegration<ApiIntegration>(s, id),
      () => get(ctx.client, service, id),
    );
    return { id: found.id, props: toOutputs(found, service) };
  },

  async update(ctx, id, olds, news) {
    return { outs: await put(ctx.client, serviceOf(olds, id), id, userInputs(news)) };
  },

  async delete(ctx, id, props) {
    await ctx.client.request("DELETE", path(serviceOf(props, id), id), { scopes: WRITE });
  },
};
