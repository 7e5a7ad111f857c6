import { UNKNOWN } from "../../../../provider/kernel/check";
import { compact, resource, sameSets, unknownPaths, withLiveIds } from "../../../../provider/resources/service-orchestration";
import { notFound, reply, replyGone, useApi } from "../../support/resource-api";

const api = useApi();
const provider = api.provider(resource);
const PATH = "/event_orchestrations/services/PSVC";
const ACTIVE = `${PATH}/active`;

const apiRule = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  label: "crit",
  conditions: [{ expression: "event.severity matches 'critical'" }],
  actions: { priority: "P1", route_to: "", suppress: false, variables: [], escalation_policy: null },
  disabled: false,
  ...extra,
});
const orchestration = (rules: unknown[], catchAll: unknown = { actions: {} }) => ({
  orchestration_path: { type: "service", parent: { id: "PSVC" }, sets: [{ id: "start", rules }], catch_all: catchAll },
});
const declaredRule = { label: "crit", conditions: [{ expression: "event.severity matches 'critical'" }], actions: { priority: "P1" } };
const news = (extra: Record<string, unknown> = {}) => ({ service: "PSVC", sets: [{ id: "start", rules: [declaredRule] }], ...extra });

describe("check", () => {
  const check = (n: Record<string, unknown>) => provider.check!({}, n);
  test("errors name the field path", async () => {
    const wrong = await check({
      service: "PSVC",
      sets: [{ id: "start", rules: [{ actions: { severity: "loud" } }] }],
      catchAll: { actions: { routeTo: "start" } },
    });
    expect(wrong.failures?.map((f) => f.reason)).toEqual([
      expect.stringMatching(/^sets\[0\]\.rules\[0\]\.actions\.severity: /),
      expect.stringMatching(/^catchAll\.actions: Unrecognized key\(s\) in object: 'routeTo'/),
    ]);
    // Rules across fields, once every field is of its type.
    const across = await check({
      service: "PSVC",
      sets: [
        { id: "start", rules: [{ actions: { routeTo: "triage" } }, { id: "r1" }, { id: "r1", actions: { extractions: [{ target: "event.summary" }] } }] },
        { id: "start" },
      ],
    });
    expect(across.failures?.map((f) => f.reason)).toEqual([
      'sets[1].id: "start" is the id of an earlier set',
      'sets[0].rules[0].actions.routeTo: names set "triage", which `sets` does not have (sets: start)',
      'sets[0].rules[2].id: "r1" is the id of an earlier rule',
      "sets[0].rules[2].actions.extractions[0]: set either `template`, or `source` and `regex`",
    ]);
  });
  test("a start set is required; valid inputs pass", async () => {
    await expect(check({ service: "PSVC", sets: [{ id: "other" }] })).resolves.toMatchObject({
      failures: [{ reason: 'sets: must hold a set with id "start", where every event begins' }],
    });
    await expect(check(news({ sets: [{ id: "start", rules: [{ actions: { routeTo: "two" } }] }, { id: "two" }] }))).resolves.not.toHaveProperty("failures");
  });
});

describe("comparing", () => {
  const live = [{ id: "start", rules: [{ id: "aaaa0001", ...declaredRule, disabled: false }] }];
  test("unset forms compare equal; ids left out are not compared, declared ones are", () => {
    expect(compact({ a: "", b: null, c: false, d: [], e: { f: "" }, g: 0, h: [{ x: "" }] })).toEqual({ g: 0, h: [{}] });
    expect(sameSets(live, [{ id: "start", rules: [declaredRule] }])).toBe(true);
    expect(sameSets(live, [{ id: "start", rules: [{ ...declaredRule, id: "aaaa0001" }] }])).toBe(true);
    expect(sameSets(live, [{ id: "start", rules: [{ ...declaredRule, id: "other" }] }])).toBe(false);
    expect(sameSets(live, [{ id: "start", rules: [{ ...declaredRule, label: "x" }] }])).toBe(false);
    expect(sameSets(live, [{ id: "start", rules: [declaredRule, declaredRule] }])).toBe(false);
  });
  test("a write keeps the live id of the rule at the same place, unless the program gives it to another rule", () => {
    expect(withLiveIds([{ id: "start", rules: [declaredRule, declaredRule] }], live)).toEqual([
      { id: "start", rules: [{ ...declaredRule, id: "aaaa0001" }, declaredRule] },
    ]);
    expect(withLiveIds([{ id: "start", rules: [declaredRule, { ...declaredRule, id: "aaaa0001" }] }], live)[0].rules?.[0]).toEqual(declaredRule);
    expect(withLiveIds([{ id: "two", rules: [declaredRule] }], live)).toEqual([{ id: "two", rules: [declaredRule] }]);
  });
});

describe("diff", () => {
  const olds = { service: "PSVC", sets: [{ id: "start", rules: [{ id: "aaaa0001", ...declaredRule }] }], catchAll: { actions: {} }, active: true };
  test("the same orchestration is no change; a rule changed by hand is; service replaces; active only when declared", async () => {
    await expect(provider.diff!("PSVC", olds, news())).resolves.toMatchObject({ changes: false });
    const changed = { ...olds, sets: [{ id: "start", rules: [{ id: "aaaa0001", ...declaredRule, conditions: [{ expression: "true" }] }] }] };
    await expect(provider.diff!("PSVC", changed, news())).resolves.toMatchObject({ changes: true, replaces: [] });
    await expect(provider.diff!("PSVC", olds, news({ service: "P2" }))).resolves.toMatchObject({ replaces: ["service"] });
    await expect(provider.diff!("PSVC", olds, news({ active: false }))).resolves.toMatchObject({ changes: true });
    await expect(provider.diff!("PSVC", olds, news({ catchAll: { actions: { suppress: true } } }))).resolves.toMatchObject({ changes: true });
    await expect(provider.diff!("PSVC", olds, news({ sets: [{ id: "start", rules: [{ ...declaredRule, label: UNKNOWN }] }] }))).resolves.toMatchObject({
      changes: true,
    });
  });
});

describe("preview warns of conditions that read what no event has (PagerDuty accepts them)", () => {
  test("unknownPaths: other roots and event fields an event does not have; strings, numbers and time zones are not paths", () => {
    expect(unknownPaths("event.summary matches part 'db.host' and event.custom_details.x exists and raw_event.links[0].href exists")).toEqual([]);
    expect(unknownPaths("cache_var.repeats >= 5 and now in Mon 09:00:00 to 17:00:00 America/Port-au-Prince and event.x > 4.5e10")).toEqual([
      "event.x (an event has summary, source, severity, timestamp, component, group, class, custom_details, dedup_key)",
    ]);
    expect(unknownPaths("payload.summary matches 'x' or event.sumary matches 'it\\'s.here'")).toEqual([
      "payload.summary (paths start with event, raw_event, cache_var)",
      "event.sumary (an event has summary, source, severity, timestamp, component, group, class, custom_details, dedup_key)",
    ]);
  });

  test("verify warns once per path, naming the rule by its label or its place; it never fails", async () => {
    const sets = [
      {
        id: "start",
        rules: [
          { label: "db alerts", conditions: [{ expression: "event.sumary matches part 'db'" }] },
          { conditions: [{ expression: "event.severity matches 'info'" }, { expression: "payload.source exists" }] },
        ],
      },
    ];
    await expect(resource.verify!(api.ctx(), { service: "PSVC", sets }, {})).resolves.toEqual([]);
    await resource.verify!(api.ctx(), { service: "PSVC", sets }, {});
    expect(api.warnings).toEqual([
      expect.stringMatching(/^ServiceOrchestration rule "db alerts" \(set "start"\), conditions\[0\]: event\.sumary .* never matches on it$/),
      expect.stringMatching(/^ServiceOrchestration rule sets\[0\]\.rules\[1\] \(set "start"\), conditions\[1\]: payload\.source /),
    ]);
    await expect(resource.verify!(api.ctx(), { service: "PSVC", sets: UNKNOWN }, {})).resolves.toEqual([]);
  });

  test("verify still warns of a known expression beside a value not known yet (a routeTo of another resource's id)", async () => {
    const sets = [
      {
        id: "start",
        rules: [
          { label: "routed", conditions: [{ expression: "event.sumary matches 'db'" }], actions: { routeTo: UNKNOWN } },
          { label: "computed", conditions: [{ expression: UNKNOWN }] },
        ],
      },
      UNKNOWN,
    ];
    await expect(resource.verify!(api.ctx(), { service: "PSVC", sets: sets as never }, {})).resolves.toEqual([]);
    expect(api.warnings).toEqual([expect.stringMatching(/^ServiceOrchestration rule "routed" \(set "start"\), conditions\[0\]: event\.sumary /)]);
  });
});

describe("preview warns, naming the service, when its events would bypass the orchestration (issue 54)", () => {
  const verify = (extra: Record<string, unknown>, service: unknown = "PSVC") => resource.verify!(api.ctx(), { ...news(extra), service } as never, {});
  const SERVICE = "/services/PSVC";
  const bypass = (who: string, cause: string) =>
    `ServiceOrchestration: the orchestration of ${who} is not active: events bypass it (${cause}); set active: true`;

  test("active: false declared: the service by name and id; it never fails the preview", async () => {
    reply(api, "GET", SERVICE, { service: { id: "PSVC", name: "Platform" } });
    await expect(verify({ active: false })).resolves.toEqual([]);
    expect(api.warnings).toEqual([bypass('service "Platform" (PSVC)', "active: false")]);
    expect(api.calls.map((c) => `${c.method} ${c.path}`)).toEqual([`GET ${SERVICE}`]);
  });

  test("active unset while the service's orchestration is not active today: warned; its name unreadable, its id", async () => {
    reply(api, "GET", ACTIVE, { active: false });
    reply(api, "GET", SERVICE, notFound, 404);
    await verify({});
    expect(api.warnings).toEqual([bypass("service PSVC", "active is unset, and the orchestration is not active today")]);
  });

  test("events go through the rules: active: true declared (nothing read), or unset and active today, or the switch gone (410)", async () => {
    await verify({ active: true });
    expect(api.calls).toEqual([]);
    reply(api, "GET", ACTIVE, { active: true });
    await verify({});
    reply(api, "GET", ACTIVE, { error: { message: "Gone" } }, 410);
    await verify({});
    expect(api.calls.map((c) => c.path)).toEqual([ACTIVE, ACTIVE]);
    expect(api.warnings).toEqual([]);
  });

  test("a service the program creates: its orchestration starts active, so only active: false warns, without a name to read", async () => {
    await verify({}, UNKNOWN);
    expect(api.warnings).toEqual([]);
    await verify({ active: false }, UNKNOWN);
    expect(api.warnings).toEqual([bypass("a service not created yet", "active: false")]);
    expect(api.calls).toEqual([]);
  });

  test("read: a 410 from /active (PagerDuty retired the switch) is active", async () => {
    reply(api, "GET", PATH, orchestration([]));
    reply(api, "GET", ACTIVE, { error: { message: "Gone" } }, 410);
    await expect(provider.read!("PSVC", { service: "PSVC" })).resolves.toMatchObject({ props: { active: true } });
  });
});

describe("create, read, update, delete", () => {
  test("create takes over the live orchestration: rule ids stay, the body is the API's snake_case, active is written when declared", async () => {
    reply(api, "GET", PATH, orchestration([apiRule("aaaa0001")]));
    reply(api, "PUT", PATH, { ...orchestration([apiRule("aaaa0001")]), warnings: [{ message: "plan lacks suppress" }] });
    reply(api, "PUT", ACTIVE, { active: true });
    const r = await provider.create!({
      ...news({ active: true, catchAll: { actions: { eventAction: "trigger" } } }),
      sets: [{ id: "start", rules: [{ ...declaredRule, actions: { priority: "P1", routeTo: "start" } }] }],
    });
    expect(api.calls[1].body).toEqual({
      orchestration_path: {
        sets: [{ id: "start", rules: [{ id: "aaaa0001", ...declaredRule, actions: { priority: "P1", route_to: "start" } }] }],
        catch_all: { actions: { event_action: "trigger" } },
      },
    });
    expect(api.calls[2].body).toEqual({ active: true });
    expect(r).toMatchObject({ id: "PSVC", outs: { service: "PSVC", active: true, sets: [{ id: "start", rules: [{ id: "aaaa0001", label: "crit" }] }] } });
    expect(api.warnings).toEqual(["pagerduty:ServiceOrchestration PSVC: plan lacks suppress"]);
  });

  test("active left out is read, not written", async () => {
    reply(api, "GET", PATH, orchestration([]));
    reply(api, "PUT", PATH, orchestration([apiRule("bbbb0002")]));
    reply(api, "GET", ACTIVE, { active: false });
    await expect(provider.create!(news())).resolves.toMatchObject({ outs: { active: false } });
    expect(api.calls.map((c) => `${c.method} ${c.path}`)).toEqual([`GET ${PATH}`, `PUT ${PATH}`, `GET ${ACTIVE}`]);
  });

  test("a failure after the orchestration was written keeps the resource in state", async () => {
    reply(api, "GET", PATH, orchestration([]));
    reply(api, "PUT", PATH, orchestration([apiRule("bbbb0002")]));
    reply(api, "PUT", ACTIVE, { error: { message: "Bad Request", code: 2001 } }, 400);
    const err = await provider.create!(news({ active: true })).catch((e) => e);
    expect(err).toMatchObject({ name: "PartialCreateError", id: "PSVC", properties: { service: "PSVC", active: false } });
  });

  test("read reports the live orchestration (camelCase) and active; a deleted service drops it", async () => {
    reply(api, "GET", PATH, orchestration([apiRule("aaaa0001")], { actions: { event_action: "trigger" } }));
    reply(api, "GET", ACTIVE, { active: true });
    const r = await provider.read!("PSVC", { service: "PSVC" });
    expect(r.props).toMatchObject({ service: "PSVC", active: true, catchAll: { actions: { eventAction: "trigger" } } });
    expect((r.props as { sets: { rules: { actions: unknown }[] }[] }).sets[0].rules[0].actions).toMatchObject({ routeTo: "", escalationPolicy: null });
    replyGone(api, "GET", PATH);
    await expect(provider.read!("PSVC", { service: "PSVC" })).resolves.toEqual({ id: "", props: {} });
  });

  test("update sends back the ids of the last state", async () => {
    reply(api, "PUT", PATH, orchestration([apiRule("aaaa0001")]));
    reply(api, "GET", ACTIVE, { active: true });
    const olds = { service: "PSVC", sets: [{ id: "start", rules: [{ id: "aaaa0001", ...declaredRule }] }], catchAll: { actions: {} }, active: true };
    await provider.update!("PSVC", olds, news({ sets: [{ id: "start", rules: [{ ...declaredRule, label: "new" }] }] }));
    expect(api.calls[0].body).toMatchObject({ orchestration_path: { sets: [{ rules: [{ id: "aaaa0001", label: "new" }] }] } });
  });

  test("delete writes the empty orchestration back; a deleted service has nothing to empty", async () => {
    reply(api, "PUT", PATH, orchestration([]));
    await provider.delete!("PSVC", { service: "PSVC" });
    expect(api.calls[0].body).toEqual({ orchestration_path: { sets: [{ id: "start", rules: [] }], catch_all: { actions: {} } } });
    replyGone(api, "PUT", PATH);
    await expect(provider.delete!("PSVC", { service: "PSVC" })).resolves.toBeUndefined();
  });
});
