import { lookup } from "../../../../provider/lookups/service-integration";
import { checkOf } from "../../support/lookup-api";
import { notFound, reply, useApi } from "../../support/resource-api";

const api = useApi();
const check = checkOf(api, lookup);

test("finds the integration by name among the service's, without its routing key", async () => {
  reply(api, "GET", "/services/P1?include%5B%5D=integrations", {
    service: {
      id: "P1",
      integrations: [
        {
          id: "I1",
          type: "events_api_v2_inbound_integration",
          name: "Alerts",
          summary: "Alerts",
          integration_key: "k".repeat(32),
          vendor: { id: "V1" },
          html_url: "https://x/I1",
          created_at: "t",
        },
        { id: "I2", type: "generic_email_inbound_integration", name: "Mail", integration_email: "a@b" },
      ],
    },
  });
  const r = await lookup.run(api.ctx(), { service: "P1", name: "Alerts" });
  expect(r).toMatchObject({ id: "I1", service: "P1", type: "events_api_v2_inbound_integration", vendor: "V1", name: "Alerts", htmlUrl: "https://x/I1" });
  expect(JSON.stringify(r)).not.toContain("k".repeat(32));
  expect(r).not.toHaveProperty("integrationKey");
});

test("an unknown service fails on args.service; an unknown name on args.name", async () => {
  reply(api, "GET", "/services/PX?include%5B%5D=integrations", notFound, 404);
  await expect(check({ service: "PX", name: "Alerts" })).resolves.toMatchObject({
    failures: [{ reason: 'args.service: no service has id "PX"' }],
  });
  reply(api, "GET", "/services/P1?include%5B%5D=integrations", { service: { id: "P1", integrations: [{ id: "I2", name: "Mail" }] } });
  await expect(check({ service: "P1", name: "Alerts" })).resolves.toMatchObject({
    failures: [{ reason: expect.stringMatching(/^args\.name: no integration of the service is named "Alerts".*dependsOn.*there are: "Mail"$/) }],
  });
});
