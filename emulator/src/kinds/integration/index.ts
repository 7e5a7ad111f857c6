// The integration kind: a service's integrations, create, show, update, delete. Events types get a
// secret 32-char `integration_key`; the email type gets an address and email-handling settings.
import type { FastifyInstance } from "fastify";
import { audit, changes } from "../audit-record/model";
import type { EmulatorCore } from "../../core";
import { invalid, notFound } from "../../errors";
import { baseUrl, params, reference, rest, who } from "../../http";
import { integrationKey, randomString } from "../../ids";
import { SCOPES } from "../../scopes";
import { envelope, nullable, object, reference as referenceSchema } from "../../schemas";
import type { ServiceRecord } from "../../store";
import { isObject, type Json, Validator } from "../../validate";
import { vendorById } from "../../vendors";
import { defineKind, type KindOptions, ownedFind } from "../kind";
import { findService, serviceRef } from "../service/model";
import { type IntegrationRecord, renderIntegration } from "./model";

export const kind = defineKind({
  name: "integration",
  tables: { integrations: {} },
  routes,
  lag: {
    paths: ["/services/:id/integrations/:integration_id"],
    find: ownedFind((core) => core.state.integrations, "integration_id", "Integration", "id"),
  },
  // A service lists its integrations (those still in their consistency-lag window left out: lag.ts).
  serviceView: (core, base, s, include) => ({
    integrations: core.lag
      .visible(s.integrationIds, (id) => id)
      .map((id) => {
        const i = core.state.integrations[id];
        return include.has("integrations")
          ? renderIntegration(core, base, i)
          : reference(i.type, i.id, i.name, `${base}/services/${s.id}/integrations/${i.id}`);
      }),
  }),
  serviceDeleted: (core, s) => {
    for (const id of s.integrationIds) delete core.state.integrations[id];
  },
  example: {
    create: (ids) => ({ method: "POST", path: `/services/${ids.service}/integrations`, body: { integration: { type: "events_api_v2_inbound_integration" } } }),
    found: ({ id }, ids) => ({ get: `/services/${ids.service}/integrations/${id}` }),
  },
});

const integrationBody = envelope(
  "integration",
  object({ name: { type: "string", minLength: 1, maxLength: 255 }, vendor: nullable(referenceSchema), type: { type: "string" } }),
);

const EMAIL_TYPE = "generic_email_inbound_integration";

/** Types and their default names; all but the email type receive events with a routing key. */
const TYPE_NAMES: Record<string, string> = {
  events_api_v2_inbound_integration: "Events API V2",
  generic_events_api_inbound_integration: "Events API V1",
  event_transformer_api_inbound_integration: "Custom Event Transformer",
  aws_cloudwatch_inbound_integration: "Amazon CloudWatch",
  cloudkick_inbound_integration: "Cloudkick",
  keynote_inbound_integration: "Keynote",
  nagios_inbound_integration: "Nagios",
  pingdom_inbound_integration: "Pingdom",
  sql_monitor_inbound_integration: "SQL Monitor",
  [EMAIL_TYPE]: "Email",
};
const TYPES = Object.keys(TYPE_NAMES);

const EMAIL_DEFAULTS = {
  email_incident_creation: "on_new_email",
  email_filter_mode: "all-email",
  email_filters: [] as unknown[],
  email_parsers: [] as unknown[],
  email_parsing_fallback: "open_new_incident",
};
const FILTER_MODES = ["match", "no-match", "always"] as const;
/** The Terraform provider's type for an integration it creates by vendor (go-pagerduty's object type). */
const GENERIC_TYPE = "service_integration";

function emailFilters(v: Validator, o: Json) {
  return v.objects(o, "email_filters", (n, f) => {
    const out: Json = {};
    for (const part of ["subject", "body", "from_email"]) {
      // The Terraform provider leaves unset modes out; the service reads them as "always".
      out[`${part}_mode`] = n.oneOf(f, `${part}_mode`, FILTER_MODES) ?? "always";
      out[`${part}_regex`] = n.string(f, `${part}_regex`, { nullable: true }) ?? null;
    }
    return out;
  });
}

function emailParsers(v: Validator, o: Json) {
  return v.objects(o, "email_parsers", (n, p) => {
    n.oneOf(p, "action", ["trigger", "resolve"], { required: true });
    n.object(p, "match_predicate", { required: true });
    n.array(p, "value_extractors");
    return p;
  });
}

/** Validated settings present in `o` (email settings only for the email type). */
function parseSettings(v: Validator, o: Json, type: string) {
  const out: Json = {};
  const set = (k: string, val: unknown) => {
    if (val !== undefined) out[k] = val;
  };
  set("name", v.string(o, "name", { nonEmpty: true, max: 255 }) ?? undefined);
  const vendor = v.reference(o, "vendor", { nullable: true });
  if (typeof vendor === "string" && !vendorById(vendor)) v.fail(`"vendor.id" ${vendor} is not a vendor of the catalogue (GET /vendors)`);
  set("vendor", vendor);
  if (type !== EMAIL_TYPE) return out;
  set("integration_email", v.string(o, "integration_email", { pattern: /^[^@\s]+@[^@\s]+$/ }) ?? undefined);
  set(
    "email_incident_creation",
    v.oneOf(o, "email_incident_creation", ["on_new_email", "on_new_email_subject", "only_if_no_open_incidents", "use_rules"]) ?? undefined,
  );
  set("email_filter_mode", v.oneOf(o, "email_filter_mode", ["all-email", "or-rules-email", "and-rules-email"]) ?? undefined);
  set("email_filters", emailFilters(v, o));
  set("email_parsers", emailParsers(v, o));
  set("email_parsing_fallback", v.oneOf(o, "email_parsing_fallback", ["open_new_incident", "discard"]) ?? undefined);
  return out;
}

/** What audit records compare; never the routing key, which is a secret. */
const view = (i: IntegrationRecord): Json => ({ name: i.name, type: i.type, vendor: i.vendorId, integration_email: i.integration_email, ...i.settings });

const integrationRef = (base: string, i: IntegrationRecord) => reference("integration", i.id, i.name, `${base}/services/${i.serviceId}/integrations/${i.id}`);

function findIntegration(core: EmulatorCore, s: ServiceRecord, id: string): IntegrationRecord {
  const i = core.state.integrations[id];
  if (!i || i.serviceId !== s.id) throw notFound(`Integration ${id} of service ${s.id}`);
  return i;
}

function emailTaken(core: EmulatorCore, email: string, exceptId?: string): boolean {
  return Object.values(core.state.integrations).some((i) => i.integration_email === email && i.id !== exceptId);
}

async function routes(app: FastifyInstance, { core }: KindOptions): Promise<void> {
  rest(
    app,
    "POST",
    "/services/:id/integrations",
    SCOPES.servicesWrite,
    (req, reply) => {
      const p = who(req);
      const s = findService(core, p, params(req).id);
      const o = (req.body as { integration: Json }).integration;
      const v = new Validator();
      // Created by vendor: the type is the vendor's. The Terraform provider sends its placeholder type
      // "service_integration" with a vendor, which means the same.
      const vendorDecides = (o.type === undefined || o.type === GENERIC_TYPE) && isObject(o.vendor);
      const byVendor = vendorDecides && isObject(o.vendor) && typeof o.vendor.id === "string" ? vendorById(o.vendor.id) : undefined;
      if (vendorDecides && isObject(o.vendor) && !byVendor) throw invalid(`"vendor.id" ${String(o.vendor.id)} is not a vendor of the catalogue (GET /vendors)`);
      const type = byVendor ? byVendor.integrationType : v.oneOf(o, "type", TYPES, { required: true });
      v.done();
      const { name, vendor, integration_email, ...settings } = parseSettings(v, o, type as string);
      v.done();
      const isEmail = type === EMAIL_TYPE;
      const account = core.state.accounts[p.accountId];
      const email = isEmail ? ((integration_email as string | undefined) ?? `${randomString(8).toLowerCase()}@${account.subdomain}.pagerduty.example`) : null;
      if (email && emailTaken(core, email)) throw invalid(`"integration_email" ${email} is already used by another integration`);
      const i: IntegrationRecord = {
        id: core.ids.next(),
        accountId: p.accountId,
        serviceId: s.id,
        type: type as string,
        name: (name as string | undefined) ?? byVendor?.name ?? TYPE_NAMES[type as string],
        vendorId: (vendor as string | null | undefined) ?? null,
        integration_key: isEmail ? null : integrationKey(),
        integration_email: email,
        settings: isEmail ? { ...EMAIL_DEFAULTS, ...settings } : {},
        created_at: core.clock.iso(),
      };
      core.state.integrations[i.id] = i;
      if (i.integration_key) core.issued.record("routing_key", i.integration_key);
      s.integrationIds.push(i.id);
      core.startLag(p.accountId, i.id);
      const base = baseUrl(core, req);
      audit(core, p, serviceRef(base, s), "create", integrationRef(base, i), changes(undefined, view(i)));
      reply.code(201);
      return { integration: renderIntegration(core, base, i) };
    },
    integrationBody,
  );

  rest(app, "GET", "/services/:id/integrations/:integration_id", SCOPES.servicesRead, (req) => {
    const s = findService(core, who(req), params(req).id);
    return { integration: renderIntegration(core, baseUrl(core, req), findIntegration(core, s, params(req).integration_id)) };
  });

  rest(
    app,
    "PUT",
    "/services/:id/integrations/:integration_id",
    SCOPES.servicesWrite,
    (req) => {
      const p = who(req);
      const s = findService(core, p, params(req).id);
      const i = findIntegration(core, s, params(req).integration_id);
      const o = (req.body as { integration: Json }).integration;
      if (o.type !== undefined && o.type !== GENERIC_TYPE && o.type !== i.type) throw invalid(`"type" cannot be changed (is ${i.type})`);
      const v = new Validator();
      const { name, vendor, integration_email, ...settings } = parseSettings(v, o, i.type);
      v.done();
      if (typeof integration_email === "string" && emailTaken(core, integration_email, i.id))
        throw invalid(`"integration_email" ${integration_email} is already used by another integration`);
      const before = view(i);
      if (name !== undefined) i.name = name as string;
      if (vendor !== undefined) i.vendorId = vendor as string | null;
      if (integration_email !== undefined) i.integration_email = integration_email as string;
      Object.assign(i.settings, settings);
      const base = baseUrl(core, req);
      audit(core, p, serviceRef(base, s), "update", integrationRef(base, i), changes(before, view(i)));
      return { integration: renderIntegration(core, base, i) };
    },
    integrationBody,
  );

  rest(app, "DELETE", "/services/:id/integrations/:integration_id", SCOPES.servicesWrite, (req, reply) => {
    const p = who(req);
    const s = findService(core, p, params(req).id);
    const i = findIntegration(core, s, params(req).integration_id);
    delete core.state.integrations[i.id];
    s.integrationIds = s.integrationIds.filter((id) => id !== i.id);
    const base = baseUrl(core, req);
    audit(core, p, serviceRef(base, s), "delete", integrationRef(base, i), changes(view(i), undefined));
    return reply.code(204).send();
  });
}
