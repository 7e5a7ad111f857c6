import { lookup } from "../../../../provider/lookups/business-service";
import { checkOf, scopesAsked } from "../../support/lookup-api";
import { reply, useApi } from "../../support/resource-api";

const api = useApi();
const check = checkOf(api, lookup);

test("reads every page (the listing takes no query) and matches the name exactly, with services.read", async () => {
  const asked = scopesAsked(api);
  reply(api, "GET", "/business_services?limit=100&offset=0", { business_services: [{ id: "B1", name: "checkout", summary: "checkout" }], more: true });
  reply(api, "GET", "/business_services?limit=100&offset=1", {
    business_services: [
      {
        id: "B2",
        type: "business_service",
        name: "Checkout",
        summary: "Checkout",
        description: "Pay",
        point_of_contact: "Ann",
        team: { id: "T1", type: "team_reference" },
      },
    ],
    more: false,
  });
  await expect(lookup.run(api.ctx(), { name: "Checkout" })).resolves.toEqual({
    id: "B2",
    type: "business_service",
    name: "Checkout",
    summary: "Checkout",
    description: "Pay",
    pointOfContact: "Ann",
    team: "T1",
  });
  expect(asked).toEqual([["services.read"], ["services.read"]]);
});

test("no exact match is a failure on args.name listing the candidates; absent fields are null", async () => {
  const page = { business_services: [{ id: "B1", name: "checkout" }], more: false };
  reply(api, "GET", "/business_services?limit=100&offset=0", page);
  await expect(check({ name: "Checkout" })).resolves.toMatchObject({
    failures: [{ reason: 'args.name: no business service is named "Checkout" (names match exactly, including case); there are: "checkout"' }],
  });
  reply(api, "GET", "/business_services?limit=100&offset=0", page);
  await expect(lookup.run(api.ctx(), { name: "checkout" })).resolves.toMatchObject({
    summary: "checkout",
    description: null,
    pointOfContact: null,
    team: null,
  });
});
