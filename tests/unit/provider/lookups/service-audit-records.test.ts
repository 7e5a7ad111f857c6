import { lookup } from "../../../../provider/lookups/service-audit-records";
import { checkOf, scopesAsked } from "../../support/lookup-api";
import { reply, useApi } from "../../support/resource-api";

const api = useApi();
const check = checkOf(api, lookup);

test("audit records follow next_cursor with limit, since and until, with audit_records.read", async () => {
  const asked = scopesAsked(api);
  const q = "since=2026-01-01T00%3A00%3A00Z&until=2026-01-02T00%3A00%3A00Z&limit=2";
  reply(api, "GET", `/services/P1/audit/records?${q}`, { records: [{ id: "A3", execution_time: "t3" }, { id: "A2" }], next_cursor: "c1", limit: 2 });
  reply(api, "GET", `/services/P1/audit/records?${q}&cursor=c1`, {
    records: [{ id: "A1", details: { fields: [{ name: "x", before_value: "1" }] } }],
    next_cursor: null,
  });
  const r = await lookup.run(api.ctx(), { service: "P1", since: "2026-01-01T00:00:00Z", until: "2026-01-02T00:00:00Z", limit: 2 });
  expect(r).toEqual({ records: [{ id: "A3", executionTime: "t3" }, { id: "A2" }, { id: "A1", details: { fields: [{ name: "x", beforeValue: "1" }] } }] });
  expect(asked).toEqual([["audit_records.read"], ["audit_records.read"]]);
});

test("a cursor that repeats is an error, not an endless loop", async () => {
  reply(api, "GET", "/services/P1/audit/records?limit=100", { records: [], next_cursor: "c1" });
  reply(api, "GET", "/services/P1/audit/records?limit=100&cursor=c1", { records: [], next_cursor: "c1" });
  await expect(lookup.run(api.ctx(), { service: "P1" })).rejects.toThrow(/cursor of an earlier page/);
});

test.each([
  [{ service: "P1", since: "yesterday" }, "args.since: must be an ISO 8601 date-time"],
  [{ service: "P1", since: "2026-01-02T00:00:00Z", until: "2026-01-01T00:00:00Z" }, 'args.until: must be after "since"'],
  [{ service: "P1", since: "2026-01-01T00:00:00Z", until: "2026-03-01T00:00:00Z" }, 'args.until: may be at most 31 days after "since"'],
  [{ service: "P1", limit: 500 }, "args.limit: "],
])("the window and the page size are checked before any request: %j", async (args, reason) => {
  const f = (await check(args)).failures?.[0];
  expect(f).toMatchObject({ property: "", reason: expect.stringContaining(reason) });
  expect(f!.reason.startsWith(reason)).toBe(true);
  expect(api.calls).toEqual([]);
});
