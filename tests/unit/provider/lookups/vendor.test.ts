import { lookup } from "../../../../provider/lookups/vendor";
import { checkOf } from "../../support/lookup-api";
import { reply, useApi } from "../../support/resource-api";

const api = useApi();
const check = checkOf(api, lookup);

test("exact name first, else case-insensitive", async () => {
  const vendors = {
    vendors: [
      { id: "V1", name: "Datadog", summary: "Datadog", website_url: "https://dd", description: "d" },
      { id: "V2", name: "Datadog Logs" },
    ],
    more: false,
  };
  reply(api, "GET", "/vendors?query=datadog&limit=100&offset=0", vendors);
  await expect(lookup.run(api.ctx(), { name: "datadog" })).resolves.toEqual({
    id: "V1",
    name: "Datadog",
    summary: "Datadog",
    description: "d",
    websiteUrl: "https://dd",
  });
  reply(api, "GET", "/vendors?query=Nope&limit=100&offset=0", { vendors: [], more: false });
  await expect(check({ name: "Nope" })).resolves.toMatchObject({ failures: [{ reason: 'args.name: no vendor is named "Nope"' }] });
});
