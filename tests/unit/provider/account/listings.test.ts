// Reads in a burst (a refresh) are answered by one listing of the account's services with their
// integrations; a single read, an object the listing lacks, a write since, and a large account
// each fall back to one GET per object. Requests are counted on undici's MockAgent.
import * as integration from "../../../../provider/resources/service-integration";
import * as service from "../../../../provider/resources/service";
import * as rule from "../../../../provider/resources/service-event-rule";
import { TTL_MS } from "../../../../provider/account/listings";
import { withoutUnset } from "../../../../provider/kernel/unset";
import { API, notFound, useApi } from "../../support/resource-api";
import { apiService } from "../../support/api-objects";

const api = useApi();
const providers = { service: api.provider(service.resource), integration: api.provider(integration.resource), rule: api.provider(rule.resource) };
const seen: string[] = [];
beforeEach(() => (seen.length = 0));

const live = (id: string, name = `svc-${id}`) => apiService(id, name, { integrations: [] as unknown[] });
const events = (id: string, svc: string) => ({
  id,
  type: "events_api_v2_inbound_integration",
  name: "Events API V2",
  summary: "Events API V2",
  html_url: `https://acme.pagerduty.com/services/${svc}/integrations/${id}`,
  created_at: "2026-11-22T00:00:00Z",
  service: { id: svc, type: "service_reference" },
  vendor: null,
  integration_key: `key-${id}`.padEnd(32, "0"),
});
const ids = (n: number) => Array.from({ length: n }, (_, i) => `P${String(i).padStart(3, "0")}`);
/** `count` services, each with one events integration embedded whole. */
const account = (count: number) => ids(count).map((id) => ({ ...live(id), integrations: [events(`I${id}`, id)] }));

/**
 * Answers GETs from `services`: a show per id, and pages of the list, which embed integrations whole
 * with `include[]=integrations` (unless `referencesOnly`, a server that never does).
 */
function serve(services: ReturnType<typeof account>, opts: { totalOverride?: number; referencesOnly?: boolean; noTotal?: boolean } = {}): void {
  api
    .pool()
    .intercept({ method: "GET", path: (p) => p.startsWith("/services") })
    .reply((req) => {
      const url = new URL(req.path, API);
      seen.push(`${req.method} ${url.pathname}${url.search}`);
      const show = /^\/services\/([^/]+)$/.exec(url.pathname);
      if (show) {
        const found = services.find((s) => s.id === show[1]);
        return found ? json({ service: { ...found, integrations: found.integrations.map(ref) } }) : json(notFound, 404);
      }
      const integ = /^\/services\/([^/]+)\/integrations\/([^/]+)$/.exec(url.pathname);
      if (integ) {
        const found = services.find((s) => s.id === integ[1])?.integrations.find((i) => i.id === integ[2]);
        return found ? json({ integration: found }) : json(notFound, 404);
      }
      const limit = Number(url.searchParams.get("limit") ?? 25);
      const offset = Number(url.searchParams.get("offset") ?? 0);
      const whole = !opts.referencesOnly && url.searchParams.getAll("include[]").includes("integrations");
      const page = services.slice(offset, offset + limit).map((s) => (whole ? s : { ...s, integrations: s.integrations.map(ref) }));
      const total = url.searchParams.get("total") === "true" && !opts.noTotal ? (opts.totalOverride ?? services.length) : null;
      return json({ services: page, limit, offset, more: offset + limit < services.length, total });
    })
    .persist();
}
const ref = (i: { id: string; type: string }) => ({ id: i.id, type: `${i.type}_reference` });
const json = (data: unknown, statusCode = 200) => ({
  statusCode,
  data: JSON.stringify(data),
  responseOptions: { headers: { "content-type": "application/json" } },
});

const readService = (id: string) => providers.service.read!(id, {});
const readIntegration = (id: string, svc: string) => providers.integration.read!(id, { service: svc });
const lists = () => seen.filter((s) => s.startsWith("GET /services?"));
const shows = () => seen.filter((s) => !s.startsWith("GET /services?"));

test("a single read is one GET: nothing is listed", async () => {
  serve(account(3));
  await expect(readService("P001")).resolves.toMatchObject({ id: "P001", props: { name: "svc-P001" } });
  expect(seen).toEqual(["GET /services/P001"]);
});

test("reads in a burst: one GET, then one listing page answers the rest, services and integrations alike", async () => {
  const services = account(40);
  serve(services);
  const reads = await Promise.all([...ids(40).map((id) => readService(id)), ...ids(40).map((id) => readIntegration(`I${id}`, id))]);
  expect(shows()).toEqual(["GET /services/P000"]);
  expect(lists()).toEqual(["GET /services?include%5B%5D=integrations&limit=100&offset=0&total=true"]);
  // What the listing answers is what a GET of each would have: same outputs.
  for (const [i, id] of ids(40).entries()) {
    expect(reads[i]).toEqual({ id, props: withoutUnset(service.toOutputs(services[i])) });
    expect(reads[40 + i]).toEqual({ id: `I${id}`, props: withoutUnset(integration.toOutputs(services[i].integrations[0], id)) });
  }
  // The listing is reused by a later burst within its time.
  await Promise.all([readService("P003"), readIntegration("IP004", "P004")]);
  expect(seen).toHaveLength(2);
});

/** The listing of 250 services: the first page asks for the total. */
const THREE_PAGES = [0, 100, 200].map((o) => `GET /services?include%5B%5D=integrations&limit=100&offset=${o}${o ? "" : "&total=true"}`);

test("pages after the first are fetched together once the total is known, when the reads have reached the pages", async () => {
  serve(account(250));
  await Promise.all(ids(250).map((id) => readService(id)));
  expect(lists()).toEqual(THREE_PAGES);
  // The first read alone, the second while the listing (3 pages) would still cost more than 2 reads.
  expect(shows()).toHaveLength(2);
});

test("a server that gives no total is paged by `more`, one page after another", async () => {
  serve(account(250), { noTotal: true });
  await Promise.all(ids(250).map((id) => readService(id)));
  expect(lists()).toEqual(THREE_PAGES);
  expect(shows()).toHaveLength(1);
});

test("an object the listing lacks is read on its own, so a deleted one still leaves the state and a present one never does", async () => {
  const services = account(5);
  serve(services);
  const [, gone, missingIntegration] = await Promise.all([readService("P000"), readService("PGONE"), readIntegration("IGONE", "P001")]);
  expect(gone).toEqual({ id: "", props: {} });
  expect(missingIntegration).toEqual({ id: "", props: {} });
  // A gone object is looked at three times (two second looks, kernel/consistency.ts) before it leaves the state.
  const gones = ["GET /services/PGONE", "GET /services/P001/integrations/IGONE"];
  expect(shows().sort()).toEqual(["GET /services/P000", ...gones, ...gones, ...gones].sort());
  expect(lists()).toHaveLength(1);
});

test("integrations a server embeds only as references are read on their own", async () => {
  serve(account(3), { referencesOnly: true });
  const out = await Promise.all(ids(3).map((id) => readIntegration(`I${id}`, id)));
  expect(out.map((r) => r.props.integrationKey)).toEqual(ids(3).map((id) => `key-I${id}`.padEnd(32, "0")));
  expect(shows()).toHaveLength(3);
  expect(lists()).toHaveLength(1);
});

test("a write of this process since the listing was taken makes it unusable", async () => {
  serve(account(5));
  api
    .pool()
    .intercept({ method: "PUT", path: "/services/P002" })
    .reply(() => json({ service: { ...live("P002", "renamed"), integrations: [] } }));
  await Promise.all(ids(5).map((id) => readService(id)));
  expect(seen).toHaveLength(2);
  await providers.service.update!("P002", { name: "svc-P002", escalationPolicy: "PEP1" }, { name: "renamed", escalationPolicy: "PEP1" });
  seen.length = 0;
  await readService("P001");
  expect(seen).toEqual(["GET /services/P001"]);
});

test("a listing is not reused after its time", async () => {
  serve(account(5));
  const now = jest.spyOn(Date, "now");
  now.mockReturnValue(1_000_000);
  await Promise.all(ids(5).map((id) => readService(id)));
  expect(seen).toHaveLength(2);
  seen.length = 0;
  now.mockReturnValue(1_000_000 + TTL_MS);
  await readService("P001");
  expect(seen).toEqual(["GET /services/P001"]);
});

test("a big account the stack reads little of is not listed: one first page tells its size, the reads go one by one", async () => {
  serve(account(5000));
  await Promise.all(ids(40).map((id) => readService(id)));
  // 50 pages would cost more than the 40 reads.
  expect(lists()).toEqual(["GET /services?include%5B%5D=integrations&limit=100&offset=0&total=true"]);
  expect(shows()).toHaveLength(40);
});

test("a big account the stack reads much of is listed once the reads reach its pages: under 0.1 requests per read", async () => {
  serve(account(5000));
  const reads = await Promise.all([...ids(1000).map((id) => readService(id)), ...ids(1000).map((id) => readIntegration(`I${id}`, id))]);
  expect(reads.map((r) => r.id)).toEqual([...ids(1000), ...ids(1000).map((id) => `I${id}`)]);
  expect(lists()).toHaveLength(50);
  expect(seen.length / reads.length).toBeLessThan(0.1);
});

test("event rules of one service read in one burst share one listing of its rules", async () => {
  const rules = Array.from({ length: 12 }, (_, i) => ({
    id: `R${i}`,
    position: i,
    disabled: false,
    conditions: { operator: "and", subconditions: [] },
    time_frame: null,
    variables: [],
    actions: { annotate: { value: `r${i}` } },
  }));
  api
    .pool()
    .intercept({ method: "GET", path: (p) => p.startsWith("/services/PRULES/rules") })
    .reply((req) => {
      const url = new URL(req.path, API);
      seen.push(`${req.method} ${url.pathname}`);
      const one = /\/rules\/([^/]+)$/.exec(url.pathname);
      if (one) return json({ rule: rules.find((r) => r.id === one[1]) });
      return json({ rules, limit: 100, offset: 0, more: false });
    })
    .persist();
  const out = await Promise.all(rules.map((r) => providers.rule.read!(r.id, { service: "PRULES" })));
  expect(out.map((r) => r.props?.actions)).toEqual(rules.map((r) => r.actions));
  expect(seen).toEqual(["GET /services/PRULES/rules/R0", "GET /services/PRULES/rules"]);
});

test("a listing that fails leaves the reads to their own GETs", async () => {
  api
    .pool()
    .intercept({ method: "GET", path: (p) => p.startsWith("/services?") })
    .reply(() => {
      seen.push("GET /services?");
      return json({ error: { message: "Forbidden", code: 2010 } }, 403);
    });
  serve(account(3));
  const out = await Promise.all(ids(3).map((id) => readService(id)));
  expect(out.map((r) => r.id)).toEqual(ids(3));
  expect(lists()).toEqual(["GET /services?"]);
  expect(shows()).toHaveLength(3);
});
