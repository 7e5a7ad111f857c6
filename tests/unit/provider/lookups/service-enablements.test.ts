import { lookup } from "../../../../provider/lookups/service-enablements";
import { checkOf } from "../../support/lookup-api";
import { notFound, reply, useApi } from "../../support/resource-api";

const api = useApi();
const check = checkOf(api, lookup);

test("enablements with their warnings", async () => {
  reply(api, "GET", "/services/P1/enablements", { enablements: [{ feature: "aiops", enabled: false, updated_at: null, warnings: ["not entitled"] }] });
  await expect(lookup.run(api.ctx(), { service: "P1" })).resolves.toEqual({
    enablements: [{ feature: "aiops", enabled: false, updatedAt: null, warnings: ["not entitled"] }],
  });
});

test("a missing service is a failure on args.service", async () => {
  reply(api, "GET", "/services/PX/enablements", notFound, 404);
  await expect(check({ service: "PX" })).resolves.toMatchObject({
    failures: [{ property: "", reason: 'args.service: no service has id "PX"' }],
  });
});

test("other errors propagate", async () => {
  reply(api, "GET", "/services/P1/enablements", { error: { message: "Forbidden", code: 2010 } }, 403);
  await expect(check({ service: "P1" })).rejects.toThrow(/403/);
});
