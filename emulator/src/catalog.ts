// What clients read around services: the account's abilities (the official Terraform provider
// checks credentials with GET /abilities), the vendor catalogue (integrations may be created by
// vendor), the account's priorities (an event rule's `priority` action takes a priority id) and
// the current user of a user credential.
import { createHash } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { EmulatorCore } from "./core";
import { invalid, notFound } from "./errors";
import { baseUrl, many, paginate, params, query, rest, single, who } from "./http";
import { SCOPES } from "./scopes";
import { origin } from "./region";
import type { Account, Role } from "./store";
import { type Vendor, VENDORS, vendorById } from "./vendors";

/** Every account has these; `event_intelligence` only with the AIOps entitlement. */
const BASE_ABILITIES = [
  "teams",
  "read_only_users",
  "service_support_hours",
  "urgencies",
  "custom_fields",
  "event_rules",
  "manage_schedules",
  "response_plays",
  "advanced_permissions",
];

export function abilitiesOf(account: Account): string[] {
  return [...BASE_ABILITIES, ...(account.aiopsEntitled ? ["event_intelligence"] : [])].sort();
}

/** `assets`: the origin (static files are served at the root only, not under /eu). */
export function renderVendor(base: string, assets: string, v: Vendor) {
  const slug = v.name.toLowerCase().replace(/[^a-z0-9]+/g, "_");
  return {
    id: v.id,
    type: "vendor",
    summary: v.name,
    self: `${base}/vendors/${v.id}`,
    html_url: null,
    name: v.name,
    website_url: v.website_url,
    logo_url: `${assets}/_emulator/static/vendors/${slug}_large.png`,
    thumbnail_url: `${assets}/_emulator/static/vendors/${slug}_thumb.png`,
    description: v.description,
    integration_guide_url: v.website_url,
  };
}

/** The account's priorities, most to least severe (PagerDuty's defaults; ids fixed per account). */
const PRIORITIES: readonly { name: string; description: string }[] = [
  { name: "P1", description: "Critical issue that warrants public notification and liaison with executive teams" },
  { name: "P2", description: "Critical system issue actively impacting many customers' ability to use the product" },
  { name: "P3", description: "Stability or minor customer-impacting issues that require immediate attention from service owners" },
  { name: "P4", description: "Minor issues requiring action, but not affecting customer ability to use the product" },
  { name: "P5", description: "Cosmetic issues or bugs, not affecting customer ability to use the product" },
];

const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** A stable id derived from the account and the priority's name, so no state is stored for them. */
function priorityId(accountId: string, name: string): string {
  const h = createHash("sha256").update(`priority\0${accountId}\0${name}`).digest();
  return `Q${[...h.subarray(0, 6)].map((b) => ID_ALPHABET[b % ID_ALPHABET.length]).join("")}`;
}

export function prioritiesOf(accountId: string, base: string) {
  return PRIORITIES.map((p) => {
    const id = priorityId(accountId, p.name);
    return { id, type: "priority", summary: p.name, self: `${base}/priorities/${id}`, html_url: null, name: p.name, description: p.description };
  });
}

const ROLE_NAMES: Record<Role, string> = { admin: "admin", user: "user", read_only: "read_only_user" };

export function registerCatalog(app: FastifyInstance, core: EmulatorCore): void {
  rest(app, "GET", "/abilities", SCOPES.abilitiesRead, (req) => ({ abilities: abilitiesOf(core.state.accounts[who(req).accountId]) }));

  // 204 without a body when the account has the ability, 404 otherwise.
  rest(app, "GET", "/abilities/:id", SCOPES.abilitiesRead, (req, reply) => {
    const id = params(req).id;
    if (!abilitiesOf(core.state.accounts[who(req).accountId]).includes(id)) throw notFound(`Ability ${id}`);
    return reply.code(204).send();
  });

  rest(app, "GET", "/vendors", SCOPES.vendorsRead, (req) => {
    const q = query(req);
    const text = single(q.query)?.toLowerCase();
    const list = VENDORS.filter((v) => !text || v.name.toLowerCase().includes(text)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const { page, meta } = paginate(list, q);
    const base = baseUrl(core, req);
    const assets = origin(core, req);
    return { vendors: page.map((v) => renderVendor(base, assets, v)), ...meta };
  });

  rest(app, "GET", "/vendors/:id", SCOPES.vendorsRead, (req) => {
    const v = vendorById(params(req).id);
    if (!v) throw notFound(`Vendor ${params(req).id}`);
    return { vendor: renderVendor(baseUrl(core, req), origin(core, req), v) };
  });

  rest(app, "GET", "/priorities", SCOPES.prioritiesRead, (req) => {
    const q = query(req);
    const { page, meta } = paginate(prioritiesOf(who(req).accountId, baseUrl(core, req)), q);
    return { priorities: page, ...meta };
  });

  // No scope: any user credential may read its own user. Account-level credentials have no user,
  // and the service answers them 400 (clients such as pdpyras tell key kinds apart by that).
  rest(app, "GET", "/users/me", "", (req) => {
    const p = who(req);
    if (!p.userId)
      throw invalid("GET /users/me needs a user's credential (a user API key or a user token); account-level keys and app tokens have no current user");
    const includes = many(query(req), "include");
    const bad = includes.filter((i) => !["contact_methods", "notification_rules", "teams", "subdomains", "calendar_urls"].includes(i));
    if (bad.length) throw invalid(`"include[]" has unknown values: ${bad.join(", ")}`);
    const u = core.state.users[p.userId];
    const base = baseUrl(core, req);
    return {
      user: {
        id: u.id,
        type: "user",
        summary: u.name,
        self: `${base}/users/${u.id}`,
        html_url: `${base}/users/${u.id}`,
        name: u.name,
        email: u.email,
        time_zone: "Etc/UTC",
        color: "green",
        role: ROLE_NAMES[u.role],
        avatar_url: `${origin(core, req)}/_emulator/static/avatar.png`,
        description: null,
        invitation_sent: false,
        job_title: "",
        teams: [],
        contact_methods: [],
        notification_rules: [],
      },
    };
  });
}
