// The throwaway service `pagerduty-routing-test parity` makes on a real account, through PagerDuty's
// public REST API only: a service on the escalation policy the user names (the urgency rule and
// support hours of the service it stands for), an Events API v2 integration, and a copy of that
// service's orchestration (its rules, catch-all and cache variables, made active). Priorities and
// escalation policies are account objects with their own ids: the copy names the real account's
// ones of the same name, and one the account lacks stops the run before any event is sent.
// `remove` deletes the integration and the service (its incidents go with it).
import { randomBytes } from "node:crypto";
import { request, type Dispatcher } from "undici";
import { messageOf, PagerDutyError } from "../errors";
import type { ApiClient } from "../http/client";
import {
  cacheVariablesPath,
  ESCALATION_POLICIES,
  integrationsPath,
  orchestrationActivePath,
  orchestrationPath,
  POLICIES_READ,
  PRIORITIES,
  PRIORITIES_READ,
  READ,
  SERVICES,
  servicePath,
  WRITE,
} from "../kernel/api-paths";
import type { Consistency } from "../kernel/consistency";
import { listOffset } from "../kernel/pages";

type Json = Record<string, unknown>;

/** A service's orchestration as the REST API serves it, with what makes it behave. */
export interface OrchestrationCopy {
  service: { name: string; incident_urgency_rule?: unknown; support_hours?: unknown };
  path: { sets: Json[]; catch_all: Json };
  active: boolean;
  cacheVariables: Json[];
}

/** Reads the orchestration of `serviceId` (on the emulator the cases ran on). */
export async function readOrchestration(client: ApiClient, serviceId: string): Promise<OrchestrationCopy> {
  const id = serviceId;
  const [service, o, active, vars] = await Promise.all([
    client.request<{ service: OrchestrationCopy["service"] }>("GET", servicePath(id), { scopes: READ }),
    client.request<{ orchestration_path: OrchestrationCopy["path"] }>("GET", orchestrationPath(id), { scopes: READ }),
    client.request<{ active: boolean }>("GET", orchestrationActivePath(id), { scopes: READ }),
    client.request<{ cache_variables?: Json[] }>("GET", cacheVariablesPath(id), { scopes: READ }),
  ]);
  return { service: service.service, path: o.orchestration_path, active: active.active, cacheVariables: vars.cache_variables ?? [] };
}

/** Names by id and ids by name of an account's priorities and escalation policies. */
interface Catalog {
  priorities: Map<string, string>;
  policies: Map<string, string>;
}

async function catalogOf(client: ApiClient): Promise<Catalog> {
  const [priorities, policies] = await Promise.all([
    listOffset<{ id: string; name: string }>(client, PRIORITIES, "priorities", PRIORITIES_READ),
    listOffset<{ id: string; name: string }>(client, ESCALATION_POLICIES, "escalation_policies", POLICIES_READ),
  ]);
  return { priorities: new Map(priorities.map((p) => [p.id, p.name])), policies: new Map(policies.map((p) => [p.id, p.name])) };
}

/**
 * The rules with the emulator account's priority and escalation policy ids replaced by the real
 * account's of the same name; a name the real account lacks is an error naming the rule.
 */
export function translateIds(path: OrchestrationCopy["path"], from: Catalog, to: Catalog): OrchestrationCopy["path"] {
  const byName = (m: Map<string, string>) => new Map([...m].map(([id, name]) => [name, id]));
  const target = { priorities: byName(to.priorities), policies: byName(to.policies) };
  const swap = (actions: Json, where: string): Json => {
    const out = { ...actions };
    for (const [field, kind, what] of [
      ["priority", "priorities", "priority"],
      ["escalation_policy", "policies", "escalation policy"],
    ] as const) {
      const id = actions[field];
      if (typeof id !== "string") continue;
      const name = from[kind].get(id);
      const mapped = name === undefined ? undefined : target[kind].get(name);
      if (!mapped)
        throw new PagerDutyError(
          "ERR_NOT_FOUND",
          `${where}.actions.${field}: the ${what} ${name ? `"${name}"` : id} has no namesake in the account parity runs on: ` +
            "create it, or run parity on an account that has it",
        );
      out[field] = mapped;
    }
    return out;
  };
  return {
    sets: path.sets.map((s, i) => ({
      ...s,
      rules: ((s.rules as Json[] | undefined) ?? []).map((r, j) => ({
        ...r,
        actions: swap((r.actions as Json | undefined) ?? {}, `sets[${i}].rules[${j}]`),
      })),
    })),
    catch_all: { ...path.catch_all, actions: swap((path.catch_all.actions as Json | undefined) ?? {}, "catch_all") },
  };
}

/** A throwaway service on the real account, with its integration's routing key. */
export interface Sandbox {
  serviceId: string;
  name: string;
  /** The integration's routing key: a secret, never printed. */
  routingKey: string;
  /** Its escalation policy (an incident naming another one had it set by a rule). */
  escalationPolicy: string;
  remove(): Promise<void>;
}

/** Makes the sandbox for `copy` on the real account; on a failure, what was made is removed. */
export async function makeSandbox(
  real: ApiClient,
  emulator: ApiClient,
  copy: OrchestrationCopy,
  escalationPolicy: string,
  consistency: Consistency,
): Promise<Sandbox> {
  const [from, to] = await Promise.all([catalogOf(emulator), catalogOf(real)]);
  const path = translateIds(copy.path, from, to);
  const name = `pagerduty-routing-test parity ${copy.service.name} ${randomBytes(3).toString("hex")}`.slice(0, 255);
  const made = await real.request<{ service: { id: string } }>("POST", SERVICES, {
    body: {
      service: {
        type: "service",
        name,
        description: "A throwaway service of pagerduty-routing-test parity: removed when the run ends.",
        escalation_policy: { id: escalationPolicy, type: "escalation_policy_reference" },
        ...(copy.service.incident_urgency_rule ? { incident_urgency_rule: copy.service.incident_urgency_rule } : {}),
        ...(copy.service.support_hours ? { support_hours: copy.service.support_hours } : {}),
      },
    },
    scopes: WRITE,
  });
  const id = made.service.id;
  // PagerDuty shows a new service to requests under it only seconds after its create: each of them
  // waits out a 404 within the account's window, as the provider's own child creates do.
  const since = consistency.created("Service", id);
  const under = <T>(op: () => Promise<T>) => consistency.untilVisible(since, op);
  const remove = async () => {
    await real.request("DELETE", servicePath(id), { scopes: WRITE });
  };
  try {
    const integration = await under(() =>
      real.request<{ integration: { integration_key: string } }>("POST", integrationsPath(id), {
        body: { integration: { type: "events_api_v2_inbound_integration", name: "pagerduty-routing-test parity" } },
        scopes: WRITE,
      }),
    );
    for (const v of copy.cacheVariables) {
      const { id: _id, self: _self, ...body } = v;
      await under(() => real.request("POST", cacheVariablesPath(id), { body: { cache_variable: body }, scopes: WRITE }));
    }
    await under(() => real.request("PUT", orchestrationPath(id), { body: { orchestration_path: path }, scopes: WRITE }));
    await under(() => real.request("PUT", orchestrationActivePath(id), { body: { active: copy.active }, scopes: WRITE }));
    return { serviceId: id, name, routingKey: integration.integration.integration_key, escalationPolicy, remove };
  } catch (e) {
    // What was made goes; if it cannot, the message names it, so nobody is left to find it.
    const left = await remove().then(
      () => undefined,
      (r: unknown) => messageOf(r),
    );
    if (left) throw new PagerDutyError("ERR_API", `${messageOf(e)}; the throwaway service ${id} ("${name}") could not be removed: ${left}`, { cause: e });
    throw e;
  }
}

/** The Events API host of a region (PagerDuty's Events API v2 docs: events.pagerduty.com, events.eu.pagerduty.com). */
export const EVENTS_HOSTS = { us: "https://events.pagerduty.com", eu: "https://events.eu.pagerduty.com" } as const;

const ATTEMPTS = 5;

/**
 * Sends an event to an Events API (`POST /v2/enqueue`), retrying a 429 or 5xx a few times a second
 * or more apart (the Events API throttles per routing key). The routing key never reaches an error.
 */
export async function enqueue(eventsUrl: string, event: Json, dispatcher?: Dispatcher, pauseMs = 1_000): Promise<void> {
  let last = "";
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    try {
      const res = await request(`${eventsUrl.replace(/\/+$/, "")}/v2/enqueue`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(event),
        ...(dispatcher ? { dispatcher } : {}),
      });
      const text = await res.body.text();
      if (res.statusCode < 300) return;
      last = `${res.statusCode} ${text.slice(0, 200)}`;
      if (res.statusCode !== 429 && res.statusCode < 500) break;
    } catch (e) {
      last = (e as Error).message;
    }
    await new Promise((r) => setTimeout(r, pauseMs * attempt));
  }
  const key = String(event.routing_key ?? "");
  throw new PagerDutyError("ERR_API", `POST ${eventsUrl}/v2/enqueue failed: ${key ? last.split(key).join("****") : last}`);
}
