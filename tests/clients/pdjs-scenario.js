// PagerDuty's `@pagerduty/pdjs`, unchanged, against the emulator over HTTPS. Run as its own Node
// process by tests/clients/official-clients.test.ts with NODE_EXTRA_CA_CERTS naming the emulator's
// CA (the ready line's caFile), as a user trusts a private CA. A request the emulator refuses
// (any status >= 400) stops it with the step named; on success it prints one JSON line.
// Environment: PD_SERVER (host:port), PD_API_KEY, PD_ESCALATION_POLICY, PD_PREFIX.

const { api } = require("@pagerduty/pdjs");

const pd = api({ token: process.env.PD_API_KEY, server: process.env.PD_SERVER });
const prefix = process.env.PD_PREFIX;
const policy = { id: process.env.PD_ESCALATION_POLICY, type: "escalation_policy_reference" };
let step = "start";

/** One call through pdjs; a refusal is an error naming the step. */
async function call(name, method, endpoint, data) {
  step = name;
  const r = await pd[method](endpoint, data === undefined ? {} : { data });
  if (r.response.status >= 400) throw new Error(`${r.response.status} ${JSON.stringify(r.data).slice(0, 400)}`);
  return r;
}

/** Every page of a listing, following pdjs's `next`. */
async function paged(name, endpoint, data) {
  const pages = [await call(name, "get", endpoint, data)];
  while (pages[pages.length - 1].next) {
    const page = await pages[pages.length - 1].next();
    if (page.response.status >= 400) throw new Error(`${name}: ${page.response.status}`);
    pages.push(page);
  }
  return pages;
}

async function main() {
  const seen = {};
  // Services without "type", read, update, listed page by page (offset paging through each
  // response's `next`; pdjs's `all` finds the list only on hosts ending in ".com").
  const ids = [];
  for (let i = 0; i < 5; i++)
    ids.push((await call("services: post", "post", "/services", { service: { name: `${prefix} ${i}`, escalation_policy: policy } })).data.service.id);
  seen.service_name = (await call("services: get", "get", `/services/${ids[0]}`)).data.service.name;
  seen.service_description = (
    await call("services: put", "put", `/services/${ids[0]}`, { service: { description: "edited by pdjs" } })
  ).data.service.description;
  const pages = await paged("services: pages of 2", "/services", { query: prefix, limit: 2 });
  const listed = pages.flatMap((p) => p.data.services.map((s) => s.id));
  seen.pages = pages.length;
  seen.listed = [...listed].sort().join() === [...ids].sort().join();

  const sid = ids[0];
  // Integrations: Events API v2, and email with filters.
  const events = (
    await call("integrations: post events", "post", `/services/${sid}/integrations`, {
      integration: { type: "events_api_v2_inbound_integration", name: "events" },
    })
  ).data.integration;
  seen.integration_key_length = (events.integration_key || "").length;
  const email = (
    await call("integrations: post email with filters", "post", `/services/${sid}/integrations`, {
      integration: {
        type: "generic_email_inbound_integration",
        name: "mail",
        email_filter_mode: "and-rules-email",
        email_filters: [{ subject_mode: "match", subject_regex: "^ALERT", body_mode: "always", from_email_mode: "always" }],
      },
    })
  ).data.integration;
  seen.email_filters = (await call("integrations: get", "get", `/services/${sid}/integrations/${email.id}`)).data.integration.email_filters;
  seen.integration_renamed = (
    await call("integrations: put", "put", `/services/${sid}/integrations/${events.id}`, { integration: { name: "events renamed" } })
  ).data.integration.name;

  // Event rules: create, list, get, update (`put` of {"rule": {...}} only), delete.
  const rule = {
    conditions: { operator: "and", subconditions: [{ operator: "contains", parameters: { path: "payload.summary", value: "db" } }] },
    actions: { annotate: { value: "from pdjs" } },
  };
  const rules = [];
  for (let i = 0; i < 3; i++) rules.push((await call("rules: post", "post", `/services/${sid}/rules`, { rule })).data.rule.id);
  const rulePages = await paged("rules: pages of 2", `/services/${sid}/rules`, { limit: 2 });
  seen.rules_listed =
    rulePages
      .flatMap((p) => p.data.rules.map((r) => r.id))
      .sort()
      .join() === [...rules].sort().join();
  seen.rule_annotate = (await call("rules: get", "get", `/services/${sid}/rules/${rules[0]}`)).data.rule.actions.annotate.value;
  seen.rule_disabled = (await call("rules: put", "put", `/services/${sid}/rules/${rules[0]}`, { rule: { disabled: true } })).data.rule.disabled;
  step = "rules: delete";
  const del = await pd.delete(`/services/${sid}/rules/${rules[2]}`);
  if (del.response.status !== 204) throw new Error(`status ${del.response.status}`);
  seen.rules_left = (await call("rules: get list", "get", `/services/${sid}/rules`)).data.rules.length;

  // Custom field values and enablements.
  seen.field_names = (await call("custom fields: get values", "get", `/services/${sid}/custom_fields/values`)).data.custom_fields.map((f) => f.name).sort();
  const values = (
    await call("custom fields: put values", "put", `/services/${sid}/custom_fields/values`, { custom_fields: [{ name: "tier", value: "silver" }] })
  ).data.custom_fields;
  seen.tier = values.find((f) => f.name === "tier").value;
  seen.enablements = (await call("enablements: get", "get", `/services/${sid}/enablements`)).data.enablements.map((e) => e.feature);
  seen.aiops_enabled = (
    await call("enablements: put", "put", `/services/${sid}/enablements/aiops`, { enablement: { enabled: false } })
  ).data.enablement.enabled;

  // Audit records by cursor: pdjs's `all` follows a `cursor` field the API does not return, so the
  // cursor is followed by hand from `next_cursor`, as its users do.
  const records = [];
  let cursor;
  do {
    const page = (await call("audit records: get by cursor", "get", `/services/${sid}/audit/records`, { limit: 2, ...(cursor ? { cursor } : {}) })).data;
    records.push(...page.records);
    cursor = page.next_cursor;
  } while (cursor);
  seen.audit_records = records.length;
  seen.audit_ids_unique = new Set(records.map((r) => r.id)).size === records.length;

  for (const id of ids) {
    step = "services: delete";
    const r = await pd.delete(`/services/${id}`);
    if (r.response.status !== 204) throw new Error(`status ${r.response.status}`);
  }
  return seen;
}

main().then(
  (seen) => process.stdout.write(`${JSON.stringify(seen)}\n`),
  (e) => {
    process.stderr.write(`pdjs failed at ${step}: ${e?.message ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
