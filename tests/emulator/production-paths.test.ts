// Paths as PagerDuty's Go clients spell them. go-pagerduty (under PagerDuty's Terraform provider, and
// so @pulumi/pagerduty) ends some with a slash (`POST /services/{id}/rules/`; the Terraform
// provider's own client lists and creates cache variables at `.../cache_variables/`) and some with
// an empty query (`"/services/" + id + "?" + v.Encode()`). The service serves each as the plain path.
import { createService, type Client, type Emu, startWithClient } from "./helpers";

let e: Emu;
let api: Client;
beforeAll(async () => ({ e, api } = await startWithClient()));
afterAll(() => e.close());

test("every REST route answers its path with a trailing slash as without (no route is missing)", async () => {
  const rest = e.core.routes.filter((r) => !r.url.startsWith("/_emulator") && !r.url.startsWith("/oauth") && r.url.startsWith("/") && r.url !== "/v2/enqueue");
  expect(rest.length).toBeGreaterThan(30);
  const missing: string[] = [];
  for (const r of rest) {
    const path = `${r.url.replace(/:\w+/g, "PNOPE01")}/`;
    const res = await (r.method === "GET"
      ? api.get(path)
      : r.method === "DELETE"
        ? api.delete(path)
        : r.method === "PUT"
          ? api.put(path, {})
          : api.post(path, {}));
    // A missing object is the route's own 404 ("Not Found" with its message); a missing route names itself.
    if (res.status === 404 && JSON.stringify(res.json).includes("No route")) missing.push(`${r.method} ${path}`);
  }
  expect(missing).toEqual([]);
});

describe("go-pagerduty's spelling, one route family at a time", () => {
  let sid: string;
  beforeAll(async () => {
    sid = await createService(e, api);
  });

  test("services: a show and a list with an empty query (`?` and nothing after it)", async () => {
    expect((await api.get(`/services/${sid}?`)).json.service.id).toBe(sid);
    expect((await api.get("/services?")).json.services.map((s: { id: string }) => s.id)).toContain(sid);
  });

  test("integrations: create, then show with an empty query", async () => {
    const made = await api.post(`/services/${sid}/integrations`, { integration: { type: "events_api_v2_inbound_integration", name: "go" } });
    expect(made.status).toBe(201);
    const iid = made.json.integration.id;
    expect((await api.get(`/services/${sid}/integrations/${iid}?`)).json.integration.id).toBe(iid);
  });

  test("event rules: CreateServiceRule posts to `/services/{id}/rules/`", async () => {
    const made = await api.post(`/services/${sid}/rules/`, {
      rule: { conditions: { operator: "and", subconditions: [{ operator: "contains", parameters: { path: "summary", value: "disk" } }] }, actions: {} },
    });
    expect(made.status).toBe(201);
    expect((await api.get(`/services/${sid}/rules`)).json.rules.map((r: { id: string }) => r.id)).toEqual([made.json.rule.id]);
  });

  test("cache variables: the Terraform provider's client lists and creates at `.../cache_variables/`", async () => {
    const base = `/event_orchestrations/services/${sid}/cache_variables/`;
    const made = await api.post(base, { cache_variable: { name: "hosts", configuration: { type: "trigger_event_count", ttl_seconds: 60 } } });
    expect(made.status).toBe(200); // the API description's status for this create
    const id = made.json.cache_variable.id;
    expect((await api.get(base)).json.cache_variables.map((c: { id: string }) => c.id)).toEqual([id]);
    expect((await api.put(`${base}${id}`, { cache_variable: { name: "hosts", disabled: true } })).json.cache_variable.disabled).toBe(true);
    expect((await api.delete(`${base}${id}`)).status).toBe(204);
  });

  test("service orchestrations: a show with an empty query, `active` as it is", async () => {
    expect((await api.get(`/event_orchestrations/services/${sid}?`)).json.orchestration_path).toMatchObject({ parent: { id: sid } });
    expect((await api.get(`/event_orchestrations/services/${sid}/active`)).json).toHaveProperty("active");
  });

  test("custom fields and their values, enablements, audit records, alert grouping settings, dependencies", async () => {
    expect((await api.get("/services/custom_fields?")).status).toBe(200);
    expect((await api.get(`/services/${sid}/custom_fields/values/`)).json).toHaveProperty("custom_fields");
    expect((await api.get(`/services/${sid}/enablements/`)).json).toHaveProperty("enablements");
    expect((await api.get(`/services/${sid}/audit/records?`)).json).toHaveProperty("records");
    expect((await api.get("/alert_grouping_settings?")).json).toHaveProperty("alert_grouping_settings");
    expect((await api.get(`/service_dependencies/technical_services/${sid}/`)).json).toHaveProperty("relationships");
  });
});
