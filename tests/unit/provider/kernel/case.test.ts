// kernel/case.ts: Pulumi's camelCase keys to the API's snake_case and back.
import { fromApi, toApi } from "../../../../provider/kernel/case";

describe("key mapping", () => {
  test("camelCase <-> snake_case, deep, arrays included", () => {
    const pulumi = { supportHours: { timeZone: "UTC", daysOfWeek: [1, 2] }, scheduledActions: [{ toUrgency: "high", at: { type: "named_time" } }] };
    const api = { support_hours: { time_zone: "UTC", days_of_week: [1, 2] }, scheduled_actions: [{ to_urgency: "high", at: { type: "named_time" } }] };
    expect(toApi(pulumi)).toEqual(api);
    expect(fromApi(api)).toEqual(pulumi);
  });
  test("undefined means not managed and is not sent", () => {
    expect(toApi({ description: undefined, name: "x" })).toEqual({ name: "x" });
  });
});
