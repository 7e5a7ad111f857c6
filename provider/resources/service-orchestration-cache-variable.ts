// pagerduty:ServiceOrchestrationCacheVariable — a cache variable of a service's event orchestration
// (`/event_orchestrations/services/{id}/cache_variables`, scopes services.read/write): a value the
// orchestration keeps from event to event, which its rules read as `cache_var.<name>`. A real object
// with an id made by POST, so its create is crash-safe (createOnce); names are unique within an
// orchestration, so the declared service and name identify it.
//
// `name` changes in place: the API's PUT takes a name (its update examples send one) and PagerDuty's
// Terraform provider does not replace on it. `service` replaces.
//
// Which configuration keys go with which type: the description and the Terraform provider agree
// (recent_value: source and regex; trigger_event_count: ttl_seconds; external_data: data_type and
// ttl_seconds). Neither gives bounds for ttl_seconds; the Terraform provider treats 0 as unset
// (`omitempty`), so at least 1 second is required here. The description's external_data schema has no
// `conditions` and the Terraform provider refuses them: so are they here. Neither gives a pattern
// for names, so only an empty one is refused.
import { z } from "zod";
import { ApiError, PagerDutyError } from "../errors";
import type { ApiClient } from "../http/client";
import { cacheVariablesPath, READ, WRITE } from "../kernel/api-paths";
import { fromApi, toApi } from "../kernel/case";
import { userInputs } from "../kernel/check";
import { defineResource, named, type OutputsOf } from "../kernel/define";
import { orGone, parentService } from "../kernel/gone";
import { type Candidate, createOnce, RECOVER_COMMAND } from "../operations/recovery";
import type { Resource } from "../operations/resource";

const CACHE_TYPES = ["recent_value", "trigger_event_count", "external_data"] as const;
type CacheType = (typeof CACHE_TYPES)[number];
export const DATA_TYPES = ["string", "number", "boolean"] as const;

/** The configuration keys each type takes (all of them required). */
const TYPE_KEYS: Record<CacheType, readonly ("source" | "regex" | "ttlSeconds" | "dataType")[]> = {
  recent_value: ["source", "regex"],
  trigger_event_count: ["ttlSeconds"],
  external_data: ["dataType", "ttlSeconds"],
};

/** The PCL operators the description says cache variable conditions cannot use. */
const UNSUPPORTED_OPERATOR = /\b(resetting_trigger_count|trigger_count)\b/;
/** An expression without its quoted strings ('...', with \-escapes), where an operator's name is only text. */
const unquoted = (expression: string) => expression.replace(/'(?:[^'\\]|\\.)*'/g, "''");

const configuration = named(
  "CacheVariableConfiguration",
  z
    .object({
      type: z
        .enum(CACHE_TYPES)
        .describe(
          "What the variable holds: the latest value a regex took from an event field (`recent_value`), the number of trigger " +
            "events within `ttlSeconds` (`trigger_event_count`), or data set through the API (`external_data`).",
        ),
      source: z.string().min(1).optional().describe('Type "recent_value" (required): the event field the regex reads, e.g. `event.summary`.'),
      regex: z
        .string()
        .min(1)
        .optional()
        .describe('Type "recent_value" (required): the RE2 regular expression; its capture groups, joined, make the value (none: the whole match).'),
      ttlSeconds: z
        .number()
        .int()
        .min(1)
        .optional()
        .describe('Types "trigger_event_count" and "external_data" (required): seconds events are counted for, or external data is kept.'),
      dataType: z.enum(DATA_TYPES).optional().describe('Type "external_data" (required): the type of the data the API will set.'),
    })
    .strict()
    .describe("What the variable stores and how; each key is checked against `type`."),
);

const condition = z.object({ expression: z.string().min(1, "must not be empty").describe("A PCL condition, e.g. `event.source exists`.") }).strict();

const cacheVariableInputs = z
  .object({
    service: z.string().min(1).describe("Id of the service whose event orchestration holds the variable; changing it replaces the variable."),
    name: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .describe("The name rules use (`cache_var.<name>`), unique within the orchestration. Changing it renames the variable in place."),
    disabled: z.boolean().optional().describe("A disabled variable is not evaluated. Unset: not managed (the API's default: false)."),
    conditions: z
      .array(condition)
      .optional()
      .describe(
        "The variable is updated by events matching any of these (none: every event). Not for type `external_data`. Unset: not managed; `[]` clears them.",
      ),
    configuration,
    adoptId: z
      .string()
      .min(1)
      .optional()
      .describe("Adopt the existing variable with this id (of `service`) instead of creating one; its managed fields are set to the declared values."),
  })
  .strict()
  .superRefine((v, ctx) => {
    const fail = (path: (string | number)[], message: string) => ctx.addIssue({ code: "custom", path, message });
    const c = v.configuration;
    const keys = TYPE_KEYS[c.type];
    for (const key of ["source", "regex", "ttlSeconds", "dataType"] as const) {
      if (c[key] !== undefined && !keys.includes(key)) fail(["configuration", key], `does not apply to type "${c.type}" (it takes ${keys.join(", ")})`);
      if (c[key] === undefined && keys.includes(key)) fail(["configuration", key], `is required for type "${c.type}"`);
    }
    if (c.type === "external_data" && v.conditions?.length) fail(["conditions"], 'do not apply to type "external_data" (its value is set through the API)');
    v.conditions?.forEach((cond, i) => {
      const op = UNSUPPORTED_OPERATOR.exec(unquoted(cond.expression))?.[1];
      if (op) fail(["conditions", i, "expression"], `uses \`${op}\`, which cache variable conditions do not support`);
    });
  });

export type CacheVariableInputs = z.infer<typeof cacheVariableInputs>;

export const definition = defineResource({
  kind: "ServiceOrchestrationCacheVariable",
  description: [
    "A cache variable of a service's event orchestration: a value kept from event to event (the latest",
    "value a regex took from an event field, a count of trigger events within a time, or data set",
    "through the API) that the orchestration's rules read as `cache_var.<name>`. Names are unique",
    "within an orchestration. Changing `name` renames it in place; changing `service` replaces it.",
    "See docs/orchestrations.md.",
  ].join("\n"),
  notes:
    "Rules of a `ServiceOrchestration` read it as `cache_var.<name>`. `configuration` is checked against its `type` at preview. " +
    "See [Event orchestrations](docs/orchestrations.md#cache-variables).",
  inputs: cacheVariableInputs,
  outputs: z.object({
    service: z.string(),
    name: z.string(),
    disabled: z.boolean(),
    conditions: z.array(condition).describe("The live conditions (empty: every event)."),
    configuration: configuration.describe("The live configuration."),
    dataEndpoint: z.string().nullable().describe('Type "external_data": the endpoint that sets the variable\'s data; unset otherwise.'),
    createdAt: z.string().describe("When the variable was created (ISO 8601)."),
  }),
  replaceOn: ["service"],
  diffIgnore: ["adoptId"],
  creates: true,
  importId: "<service id>/<id>",
});

type Outputs = OutputsOf<typeof definition>;

export interface ApiCacheVariable {
  id: string;
  name: string;
  disabled?: boolean;
  conditions?: { expression: string }[] | null;
  configuration?: Record<string, unknown>;
  data_endpoint?: string;
  created_at?: string;
}

export function toOutputs(v: ApiCacheVariable, service: string): Outputs {
  return {
    service,
    name: v.name,
    disabled: v.disabled ?? false,
    conditions: (v.conditions ?? []).map((c) => ({ expression: c.expression })),
    configuration: fromApi<Outputs["configuration"]>(v.configuration ?? {}),
    dataEndpoint: v.data_endpoint ?? null,
    createdAt: v.created_at ?? "",
  };
}

/** The declared fields as the API's `cache_variable` (unset fields left out: the PUT is partial). */
export function toBody(inputs: Partial<CacheVariableInputs>): Record<string, unknown> {
  const { service: _service, adoptId: _adopt, ...rest } = inputs;
  return toApi(rest);
}

const serviceOf = (props: Record<string, unknown> | undefined, id: string) => parentService(props, `cache variable ${id}`);

async function get(client: ApiClient, service: string, id: string): Promise<ApiCacheVariable> {
  return (await client.request<{ cache_variable: ApiCacheVariable }>("GET", cacheVariablesPath(service, id), { scopes: READ })).cache_variable;
}

async function put(client: ApiClient, service: string, id: string, inputs: CacheVariableInputs): Promise<Outputs> {
  const res = await client.request<{ cache_variable: ApiCacheVariable }>("PUT", cacheVariablesPath(service, id), {
    body: { cache_variable: toBody(inputs) },
    scopes: WRITE,
  });
  return toOutputs(res.cache_variable, service);
}

/** The service's variables named `name` (at most one: names are unique within an orchestration). */
async function variablesNamed(client: ApiClient, service: string, name: string): Promise<ApiCacheVariable[]> {
  const res = await client.request<{ cache_variables?: ApiCacheVariable[] }>("GET", cacheVariablesPath(service), { scopes: READ });
  return (res?.cache_variables ?? []).filter((v) => v.name === name);
}

/**
 * Candidates for an unanswered create. Variables have no audit records; the proof is the variable
 * itself: names are unique within an orchestration, so no other create of this resource could have
 * made one under the declared name; it must also be younger than the create. The credential is
 * taken as this process's, as for alert grouping settings.
 */
async function candidates(client: ApiClient, inputs: CacheVariableInputs, since: number): Promise<Candidate[]> {
  const credential = await client.credentialTail();
  return (await variablesNamed(client, inputs.service, inputs.name))
    .map((v) => ({ id: v.id, createdAt: Date.parse(v.created_at ?? ""), credential }))
    .filter((c) => !Number.isNaN(c.createdAt) && c.createdAt >= since);
}

const isTaken = (e: unknown): e is ApiError => e instanceof ApiError && e.status === 400 && /already|taken|unique|exists/i.test(e.message);

export const resource: Resource<typeof definition> = {
  definition,

  subject: (id, props) => `cache variable ${id}${props.name ? ` ("${props.name}")` : ""} of service ${serviceOf(props, id)} (or the service)`,

  describe: (inputs) => `cache variable "${String(inputs.name ?? "")}" of service ${String(inputs.service ?? "")}`,

  findExisting: async (client, inputs) => (await variablesNamed(client, String(inputs.service), String(inputs.name))).map((v) => v.id),

  async adopt(ctx, id, news) {
    const inputs = userInputs(news);
    const found = await get(ctx.client, inputs.service, id);
    return { id: found.id, outs: await put(ctx.client, inputs.service, found.id, inputs) };
  },

  async create(ctx, news) {
    const { client } = ctx;
    const inputs = userInputs(news);
    const what = `cache variable "${inputs.name}" of service ${inputs.service}`;
    const outcome = await createOnce(ctx, {
      definition,
      origin: news.__origin,
      what,
      // A service made moments ago may answer 404 for a while: createOnce asks again within its window.
      parent: inputs.service,
      post: async () => {
        try {
          const res = await client.request<{ cache_variable: ApiCacheVariable }>("POST", cacheVariablesPath(inputs.service), {
            body: { cache_variable: toBody(inputs) },
            scopes: WRITE,
          });
          return { id: res.cache_variable.id, value: res.cache_variable };
        } catch (e) {
          if (!isTaken(e)) throw e;
          throw new PagerDutyError(
            "ERR_CONFLICT",
            `${what}: ${e.message}. Names are unique within an orchestration: rename it, adopt the existing one with \`adoptId\`, or, if an ` +
              `interrupted deployment of this stack created it, run \`${RECOVER_COMMAND}\``,
            { cause: e },
          );
        }
      },
      exists: async (id) => (await orGone(() => get(client, inputs.service, id))) !== undefined,
      find: (since) => candidates(client, inputs, since),
      findExisting: async () => (await variablesNamed(client, inputs.service, inputs.name)).map((v) => v.id),
    });
    if ("adopted" in outcome) return { id: outcome.id, outs: await put(client, inputs.service, outcome.id, inputs) };
    return { id: outcome.id, outs: toOutputs(outcome.created, inputs.service) };
  },

  async read(ctx, id, props) {
    const service = serviceOf(props, id);
    const found = await get(ctx.client, service, id);
    return { id: found.id, props: toOutputs(found, service) };
  },

  async update(ctx, id, olds, news) {
    return { outs: await put(ctx.client, serviceOf(olds, id), id, userInputs(news)) };
  },

  // A 404 means the variable is gone, or its service (and the variable with it).
  async delete(ctx, id, props) {
    await ctx.client.request("DELETE", cacheVariablesPath(serviceOf(props, id), id), { scopes: WRITE });
  },
};
