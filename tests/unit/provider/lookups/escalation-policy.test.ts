import { lookup } from "../../../../provider/lookups/escalation-policy";
import { checkOf, scopesAsked } from "../../support/lookup-api";
import { reply, useApi } from "../../support/resource-api";

const api = useApi();
const check = checkOf(api, lookup);

test("narrows with query, matches the name exactly across pages, with escalation_policies.read", async () => {
  const asked = scopesAsked(api);
  reply(api, "GET", "/escalation_policies?query=Ops&limit=100&offset=0", {
    escalation_policies: [{ id: "E1", name: "Ops nights", summary: "Ops nights" }],
    more: true,
  });
  reply(api, "GET", "/escalation_policies?query=Ops&limit=100&offset=1", {
    escalation_policies: [{ id: "E2", name: "Ops", summary: "Ops", description: null, num_loops: 2, html_url: "https://x/E2" }],
    more: false,
  });
  await expect(lookup.run(api.ctx(), { name: "Ops" })).resolves.toEqual({
    id: "E2",
    name: "Ops",
    description: null,
    numLoops: 2,
    htmlUrl: "https://x/E2",
    summary: "Ops",
  });
  expect(asked).toEqual([["escalation_policies.read"], ["escalation_policies.read"]]);
});

test("no exact match is a failure on args.name listing the candidates", async () => {
  reply(api, "GET", "/escalation_policies?query=ops&limit=100&offset=0", { escalation_policies: [{ id: "E2", name: "Ops" }], more: false });
  await expect(check({ name: "ops" })).resolves.toMatchObject({
    failures: [{ property: "", reason: 'args.name: no escalation policy is named "ops" (names match exactly, including case); there are: "Ops"' }],
  });
});

test("two policies of the same name are ambiguous, named by id", async () => {
  reply(api, "GET", "/escalation_policies?query=Ops&limit=100&offset=0", {
    escalation_policies: [
      { id: "E1", name: "Ops" },
      { id: "E2", name: "Ops" },
    ],
    more: false,
  });
  await expect(lookup.run(api.ctx(), { name: "Ops" })).rejects.toThrow('2 escalation policies are named "Ops" (E1, E2)');
});
