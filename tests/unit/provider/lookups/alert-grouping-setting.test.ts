import { lookup } from "../../../../provider/lookups/alert-grouping-setting";
import { checkOf, scopesAsked } from "../../support/lookup-api";
import { reply, useApi } from "../../support/resource-api";

const api = useApi();
const check = checkOf(api, lookup);
const setting = (id: string, name: string) => ({
  id,
  name,
  description: null,
  type: "time",
  config: { timeout: 300 },
  services: [{ id: "P1", type: "service_reference" }],
  created_at: "2026-01-01T00:00:00Z",
});

test("follows the after cursors of every setting and matches the name exactly, with services.read", async () => {
  const asked = scopesAsked(api);
  reply(api, "GET", "/alert_grouping_settings?limit=100", { alert_grouping_settings: [setting("G1", "Checkout nights")], after: "c1" });
  reply(api, "GET", "/alert_grouping_settings?limit=100&after=c1", {
    alert_grouping_settings: [{ ...setting("G2", "Checkout"), type: "content_based", config: { aggregate: "all", fields: ["summary"], time_window: 300 } }],
  });
  await expect(lookup.run(api.ctx(), { name: "Checkout" })).resolves.toEqual({
    id: "G2",
    name: "Checkout",
    description: null,
    type: "content_based",
    config: { aggregate: "all", fields: ["summary"], timeWindow: 300 },
    services: ["P1"],
    createdAt: "2026-01-01T00:00:00Z",
  });
  expect(asked).toEqual([["services.read"], ["services.read"]]);
});

test("no match fails on args.name with the dependsOn hint; a repeated name is ambiguous", async () => {
  reply(api, "GET", "/alert_grouping_settings?limit=100", { alert_grouping_settings: [setting("G1", "Nights")] });
  await expect(check({ name: "Days" })).resolves.toMatchObject({
    failures: [{ reason: expect.stringMatching(/^args\.name: no alert grouping setting is named "Days" .*dependsOn.*there are: "Nights"$/) }],
  });
  reply(api, "GET", "/alert_grouping_settings?limit=100", { alert_grouping_settings: [setting("G1", "Nights"), setting("G2", "Nights")] });
  await expect(lookup.run(api.ctx(), { name: "Nights" })).rejects.toThrow('2 alert grouping settings are named "Nights" (G1, G2)');
});
