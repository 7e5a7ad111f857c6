// What an orchestration or cache variable write refuses, as PagerDuty refuses it (an unparsable PCL
// condition, a regex RE2 refuses, a path that does not parse, trigger_count in a cache variable),
// and what it accepts with the description's invalid_data warnings.
import { type Client, type Emu, serviceWithKey, startWithClient } from "../helpers";

let e: Emu;
let api: Client;
beforeAll(async () => ({ e, api } = await startWithClient()));
afterAll(() => e.close());

type Json = Record<string, unknown>;

describe("bad input: refused at write time where PagerDuty refuses it, warned or traced otherwise", () => {
  let sid: string;
  beforeAll(async () => ({ id: sid } = await serviceWithKey(e, api)));
  const put = (rules: Json[]) =>
    api.put(`/event_orchestrations/services/${sid}`, { orchestration_path: { sets: [{ id: "start", rules }], catch_all: { actions: {} } } });

  test("an unparsable condition and a regex RE2 refuses are a 400 naming the field and the character", async () => {
    const res = await put([
      { conditions: [{ expression: "event.summary matches part" }], actions: {} },
      { conditions: [{ expression: "event.summary matches regex '(?<=x)y'" }], actions: {} },
      { actions: { variables: [{ name: "v", path: "event.source", type: "regex", value: "([a-z" }], extractions: [{ target: "event..x", template: "t" }] } },
    ]);
    expect(res.status).toBe(400);
    expect(res.json.error.errors).toEqual([
      expect.stringMatching(
        /^"orchestration_path\.sets\[0\]\.rules\[0\]\.conditions\[0\]\.expression" is not a valid PCL condition: expected a value .* \(at character 27\)$/,
      ),
      expect.stringMatching(
        /^"orchestration_path\.sets\[0\]\.rules\[1\]\.conditions\[0\]\.expression" is not a valid PCL condition: the regular expression is not valid RE2: .*\(at character 29\)$/,
      ),
      expect.stringMatching(/^"orchestration_path\.sets\[0\]\.rules\[2\]\.actions\.variables\[0\]\.value" is not a valid RE2 regular expression: /),
      expect.stringMatching(/^"orchestration_path\.sets\[0\]\.rules\[2\]\.actions\.extractions\[0\]\.target" is not a PCL path: /),
    ]);
    expect((await api.get(`/event_orchestrations/services/${sid}`)).json.orchestration_path.sets).toEqual([{ id: "start", rules: [] }]);
  });

  test("a cache variable's trigger_count condition and a bad regex are refused", async () => {
    const res = await api.post(`/event_orchestrations/services/${sid}/cache_variables`, {
      cache_variable: {
        name: "x",
        conditions: [{ expression: "trigger_count over 1 minute > 2" }],
        configuration: { type: "recent_value", source: "event.summary", regex: "(" },
      },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.errors).toEqual([
      '"cache_variable.conditions[0].expression" uses trigger_count, which cache variable conditions do not support',
      expect.stringMatching(/^"cache_variable\.configuration\.regex" is not a valid RE2 regular expression: /),
    ]);
  });

  test("an unknown cache variable or escalation policy is accepted with the description's invalid_data warnings", async () => {
    const res = await put([
      { id: "warn0001", conditions: [{ expression: "cache_var.nope > 1" }], actions: { annotate: "{{cache_var.also_nope}}", escalation_policy: "PNOPE00" } },
    ]);
    expect(res.status).toBe(200);
    expect(res.json.warnings).toEqual([
      expect.objectContaining({ rule_id: "warn0001", feature: "cache_variable:conditions", feature_type: "conditions", warning_type: "invalid_data" }),
      expect.objectContaining({ rule_id: "warn0001", feature: "cache_variable:annotate", feature_type: "actions", warning_type: "invalid_data" }),
      expect.objectContaining({ rule_id: "warn0001", feature: "escalation_policy", feature_type: "actions", warning_type: "invalid_data" }),
    ]);
  });
});
