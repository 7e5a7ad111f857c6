import { lookup } from "../../../../provider/lookups/service-event-rules";
import { checkOf } from "../../support/lookup-api";
import { notFound, reply, useApi } from "../../support/resource-api";

const api = useApi();

test("event rules follow offset pagination and are camelCased", async () => {
  reply(api, "GET", "/services/P1/rules?limit=100&offset=0", {
    rules: [{ id: "R1", position: 0, time_frame: { active_between: { start_time: 1 } } }],
    more: true,
  });
  reply(api, "GET", "/services/P1/rules?limit=100&offset=1", { rules: [{ id: "R2", position: 1, disabled: true }], more: false });
  await expect(lookup.run(api.ctx(), { service: "P1" })).resolves.toEqual({
    rules: [
      { id: "R1", position: 0, timeFrame: { activeBetween: { startTime: 1 } } },
      { id: "R2", position: 1, disabled: true },
    ],
  });
});

test("a missing service is a failure on args.service", async () => {
  reply(api, "GET", "/services/PX/rules?limit=100&offset=0", notFound, 404);
  await expect(checkOf(api, lookup)({ service: "PX" })).resolves.toMatchObject({ failures: [{ reason: 'args.service: no service has id "PX"' }] });
});
