// The readback's requests, on undici's MockAgent: the incident listing's window, services and
// order, its pages followed until --max-events is reached (and no further), an incident's alerts
// and notes paged, notes by a person left out.
import { createClient } from "../../../../provider/account/client";
import { resolveSettings } from "../../../../provider/config";
import { incidentsIn, readIncident } from "../../../../provider/cli/routing-readback";
import { useMockAgent } from "../../support/http-mock";

const API = "http://127.0.0.1:7301";
const mock = useMockAgent();
const client = () =>
  createClient(
    resolveSettings(() => undefined, { PAGERDUTY_TOKEN: "t0ken-value", PAGERDUTY_API_URL: API }),
    { dispatcher: mock() },
  );

const incident = (n: number) => ({
  id: `I${n}`,
  incident_number: n,
  created_at: new Date(Date.UTC(2026, 10, 30, 0, n)).toISOString(),
  urgency: "high",
  service: { id: "PSVC", summary: "Checkout" },
});
const page = (from: number, size: number, more: boolean) => ({ incidents: Array.from({ length: size }, (_, i) => incident(from + i)), more, limit: 100 });

test("the listing asks for the window, the services, oldest first, 100 a page, and stops at the maximum", async () => {
  const pool = mock().get(API);
  const query = (offset: number) => ({
    "service_ids[]": ["PSVC", "POTHER"],
    since: "2026-11-30T00:00:00.000Z",
    until: "2026-12-01T00:00:00.000Z",
    sort_by: "created_at:asc",
    time_zone: "UTC",
    limit: "100",
    offset: String(offset),
  });
  pool.intercept({ path: "/incidents", method: "GET", query: query(0) }).reply(200, page(1, 100, true));
  pool.intercept({ path: "/incidents", method: "GET", query: query(100) }).reply(200, page(101, 100, true));
  const c = client();
  const w = { serviceIds: ["PSVC", "POTHER"], since: new Date("2026-11-30T00:00:00Z"), until: new Date("2026-12-01T00:00:00Z") };
  const { incidents, more } = await incidentsIn(c, w, 150);
  expect(incidents.map((i) => i.incident_number)).toEqual(Array.from({ length: 150 }, (_, i) => i + 1));
  expect(more).toBe(true);
  await c.close();
});

test("the listing ends when the API says there is no more", async () => {
  mock()
    .get(API)
    .intercept({ path: /^\/incidents\?/, method: "GET" })
    .reply(200, page(1, 3, false));
  const c = client();
  const { incidents, more } = await incidentsIn(c, { serviceIds: ["PSVC"], since: new Date(0), until: new Date(1) }, 1000);
  expect([incidents.length, more]).toEqual([3, false]);
  await c.close();
});

test("an incident's alerts and notes are paged, oldest first; a note a person wrote is not the rules'", async () => {
  const pool = mock().get(API);
  const alert = (id: string, minute: number) => ({ id, created_at: `2026-11-30T00:0${minute}:00Z`, alert_key: id, severity: "error" });
  pool.intercept({ path: "/incidents/I1/alerts", method: "GET", query: { limit: "100", offset: "0" } }).reply(200, { alerts: [alert("b", 2)], more: true });
  pool.intercept({ path: "/incidents/I1/alerts", method: "GET", query: { limit: "100", offset: "1" } }).reply(200, { alerts: [alert("a", 1)], more: false });
  pool.intercept({ path: "/incidents/I1/notes", method: "GET", query: { limit: "100", offset: "0" } }).reply(200, {
    notes: [
      { content: "from the rules", created_at: "2026-11-30T00:01:00Z", user: null },
      { content: "looking", created_at: "2026-11-30T00:05:00Z", user: { id: "PUSER", summary: "Jane" } },
    ],
  });
  const c = client();
  const read = await readIncident(c, { ...incident(1), urgency: "low" } as Parameters<typeof readIncident>[1]);
  expect(read.alerts.map((a) => a.id)).toEqual(["a", "b"]);
  expect(read.notes.map((n) => n.content)).toEqual(["from the rules"]);
  await c.close();
});
