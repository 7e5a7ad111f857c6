import { lookup } from "../../../../provider/lookups/priority";
import { scopesAsked } from "../../support/lookup-api";
import { reply, useApi } from "../../support/resource-api";

const api = useApi();

test("reads every priority and matches the name, with priorities.read", async () => {
  const asked = scopesAsked(api);
  reply(api, "GET", "/priorities?limit=100&offset=0", {
    priorities: [
      { id: "Q1", name: "P1", summary: "P1", description: "crit" },
      { id: "Q2", name: "P2" },
    ],
    more: false,
  });
  await expect(lookup.run(api.ctx(), { name: "P1" })).resolves.toEqual({ id: "Q1", name: "P1", description: "crit", summary: "P1" });
  expect(asked).toEqual([["priorities.read"]]);
});
