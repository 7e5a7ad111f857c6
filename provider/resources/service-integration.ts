// pagerduty:ServiceIntegration — an integration of a service (`/services/{service}/integrations`).
// The Pulumi id is the integration id alone; `service` stays in the outputs for read and delete, so
// neither the id nor any URL ever carries the routing key. `integrationKey` is an output only, made
// secret by the SDK class (additionalSecretOutputs): dynamic providers cannot return secrets.
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { z } from "zod";
import { PagerDutyError } from "../errors";
import { getClient } from "../runtime";
import { checkInputs, deleteOrGone, diffManaged, fromApi, parentService, readOrGone, toApi, updateOrGone, userInputs } from "./fields";
import { journal } from "./journal";
import { childrenLike, createOnce, orGone } from "./recovery";

const READ = ["services.read"];
const WRITE = ["services.write"];
export const EMAIL_TYPE = "generic_email_inbound_integration";

const filterMode = z.enum(["match", "no-match", "always"]);
const regex = z.string().nullable().optional();
const emailFilter = z
  .object({
    subjectMode: filterMode,
    subjectRegex: regex,
    bodyMode: filterMode,
    bodyRegex: regex,
    fromEmailMode: filterMode,
    fromEmailRegex: regex,
  })
  .strict();

type Predicate = { type: string; matcher?: string; part?: string; children?: Predicate[] };
const predicate: z.ZodType<Predicate> = z.lazy(() =>
  z
    .object({
      type: z.enum(["all", "any", "not", "contains", "exactly", "regex"]),
      matcher: z.string().optional(),
      part: z.enum(["body", "subject", "from_addresses"]).optional(),
      children: z.array(predicate).optional(),
    })
    .strict(),
);
const emailParser = z
  .object({
    action: z.enum(["trigger", "resolve"]),
    matchPredicate: predicate,
    valueExtractors: z
      .array(
        z
          .object({
            type: z.enum(["entire", "regex", "between"]),
            part: z.enum(["body", "subject", "from_addresses"]),
            valueName: z.string().min(1),
            regex: z.string().optional(),
            startsAfter: z.string().optional(),
            endsBefore: z.string().optional(),
          })
          .strict(),
      )
      .optional(),
  })
  .strict();

/** Settings the API accepts only on the email type. */
const EMAIL_SETTINGS = ["integrationEmail", "emailIncidentCreation", "emailFilterMode", "emailFilters", "emailParsers", "emailParsingFallback"] as const;

export const integrationInputs = z
  .object({
    /** Id of the service; changing it replaces the integration. */
    service: z.string().min(1, "must be a service id"),
    type: z.string().min(1).optional(),
    /** Id of a vendor; the API derives the type from it. */
    vendor: z.string().min(1).optional(),
    name: z.string().trim().min(1, "must not be empty").max(255).optional(),
    integrationEmail: z.string().regex(/^[^@\s]+@[^@\s]+$/, "must be an email address").optional(),
    emailIncidentCreation: z.enum(["on_new_email", "on_new_email_subject", "only_if_no_open_incidents", "use_rules"]).optional(),
    emailFilterMode: z.enum(["all-email", "or-rules-email", "and-rules-email"]).optional(),
    emailFilters: z.array(emailFilter).optional(),
    emailParsers: z.array(emailParser).optional(),
    emailParsingFallback: z.enum(["open_new_incident", "discard"]).optional(),
    /** Adopt an existing integration of `service` instead of creating one. */
    adoptId: z.string().min(1).optional(),
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

/** Live integration -> Pulumi outputs. Settings a type does not have are null, not absent. */
export function toOutputs(i: ApiIntegration, service: string): Record<string, unknown> {
  return {
    service: i.service?.id ?? service,
    type: i.type,
    vendor: i.vendor?.id ?? null,
    name: i.name ?? i.summary ?? "",
    integrationEmail: i.integration_email ?? null,
    emailIncidentCreation: i.email_incident_creation ?? null,
    emailFilterMode: i.email_filter_mode ?? null,
    emailFilters: i.email_filters ? fromApi(i.email_filters) : null,
    emailParsers: i.email_parsers ? fromApi(i.email_parsers) : null,
    emailParsingFallback: i.email_parsing_fallback ?? null,
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

const managed = (news: Record<string, unknown>) => userInputs(news) as IntegrationInputs;
const path = (service: string, id?: string) =>
  `/services/${encodeURIComponent(service)}/integrations` + (id === undefined ? "" : `/${encodeURIComponent(id)}`);

async function get(service: string, id: string): Promise<ApiIntegration> {
  return (await getClient().request<{ integration: ApiIntegration }>("GET", path(service, id), { scopes: READ })).integration;
}

async function put(service: string, id: string, inputs: Partial<IntegrationInputs>): Promise<Record<string, unknown>> {
  const res = await getClient().request<{ integration: ApiIntegration }>("PUT", path(service, id), {
    body: { integration: toBody(inputs, { includeType: false }) },
    scopes: WRITE,
  });
  return toOutputs(res.integration, service);
}

/** The declared identity of an integration: its type or vendor, and its name when set. */
export const sameIdentity = (inputs: IntegrationInputs) => (i: ApiIntegration) =>
  (inputs.type === undefined || i.type === inputs.type) &&
  (inputs.vendor === undefined || i.vendor?.id === inputs.vendor) &&
  (inputs.name === undefined || i.name === inputs.name);

const serviceOf = (props: Record<string, unknown> | undefined, id: string) => parentService(props, `integration ${id}`);

export const provider: dynamic.ResourceProvider = {
  async check(_olds, news) {
    return checkInputs(integrationInputs, news);
  },

  async diff(id, olds, news) {
    journal().settle("ServiceIntegration", id);
    return diffManaged(olds, news, { replaceOn: ["service", "type", "vendor"], ignore: ["adoptId"] });
  },

  async create(news) {
    const inputs = managed(news);
    if (inputs.adoptId) {
      const found = await get(inputs.service, inputs.adoptId);
      // The API cannot change a type; adopting the wrong kind must fail before anything is written.
      if (inputs.type !== undefined && found.type !== inputs.type) {
        throw new PagerDutyError("ERR_INPUT", `cannot adopt integration ${found.id}: its "type" is "${found.type}", the program declares "${inputs.type}"`);
      }
      return { id: found.id, outs: await put(inputs.service, found.id, inputs) };
    }
    // An interrupted earlier create may have made this integration already: adopt it rather than add a second one.
    const outcome = await createOnce({
      kind: "ServiceIntegration",
      origin: news.__origin,
      what: `integration${inputs.name ? ` "${inputs.name}"` : ""} of service ${inputs.service}`,
      parent: inputs.service,
      post: async () => {
        const res = await getClient().request<{ integration: ApiIntegration }>("POST", path(inputs.service), {
          body: { integration: toBody(inputs, { includeType: true }) },
          scopes: WRITE,
        });
        return { id: res.integration.id, value: res.integration };
      },
      exists: async (id) => (await orGone(() => get(inputs.service, id))) !== undefined,
      find: (since) => childrenLike(inputs.service, /integration_reference$/, since, (id) => get(inputs.service, id), sameIdentity(inputs)),
    });
    if ("adopted" in outcome) return { id: outcome.id, outs: await put(inputs.service, outcome.id, inputs) };
    return { id: outcome.id, outs: toOutputs(outcome.created, inputs.service) };
  },

  async read(id, props) {
    const service = serviceOf(props, id);
    return readOrGone(async () => {
      const found = await get(service, id);
      return { id: found.id, props: toOutputs(found, service) };
    });
  },

  async update(id, olds, news) {
    const service = serviceOf(olds, id);
    return { outs: await updateOrGone(`integration ${id} of service ${service} (or the service)`, () => put(service, id, managed(news))) };
  },

  async delete(id, props) {
    await deleteOrGone(() => getClient().request("DELETE", path(serviceOf(props, id), id), { scopes: WRITE }));
  },
};
