import fc from "fast-check";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { AccountContext } from "../../../../provider/account/context";
import { Journal } from "../../../../provider/account/journal";
import { ApiError } from "../../../../provider/errors";
import type { ApiClient } from "../../../../provider/http/client";
import { makeProvider } from "../../../../provider/operations/factory";
import { applyMove, effectivePosition, planMoves, targetOrder } from "../../../../provider/kernel/rule-order";
import { actionsMatch, resource, toBody, toOutputs } from "../../../../provider/resources/service-event-rule";
import { virtualConsistency } from "../../support/virtual-consistency";

// ---- an in-memory rules API behind the account's client, with the API's move semantics -------------
type Rule = { id: string; [k: string]: unknown };
const api = {
  rules: new Map<string, Rule[]>(),
  converted: new Set<string>(),
  writes: [] as string[],
  calls: [] as string[],
  ruleIds: [] as unknown[],
  seq: 0,
  lag: 0,
  tick: 0,
};
/** Eventual consistency: a rule created while `api.lag` > 0 stays hidden for that many later requests (404 by id, left out of listings). */
const hiddenUntil = new Map<string, number>();
const hidden = (r: Rule) => (hiddenUntil.get(r.id) ?? 0) > api.tick;
const warnings: string[] = [];
const notFound = (method: string, path: string) => new ApiError({ method, path, status: 404, errors: [], response: { status: 404, headers: {}, body: null } });

async function request(method: string, path: string, opts: { body?: any; query?: any } = {}): Promise<any> {
  const m = /^\/services\/([^/]+)\/rules(?:\/([^/]+))?$/.exec(path)!;
  const [, service, id] = m;
  api.calls.push(`${method} ${id ?? ""}`.trim());
  api.tick++;
  const list = api.rules.get(service) ?? [];
  api.rules.set(service, list);
  await new Promise((r) => setTimeout(r, Math.random() * 3)); // interleave like real I/O
  const render = (r: Rule) => ({ ...r, position: list.indexOf(r) });
  if (method !== "GET") {
    api.writes.push(`${method} ${id ?? ""} ${JSON.stringify(opts.body?.rule?.position ?? "")}`);
    if (api.converted.has(service)) {
      throw new ApiError({
        method,
        path,
        status: 409,
        apiMessage: "Event rules of this service were converted and are read-only",
        errors: [],
        response: { status: 409, headers: {}, body: null },
      });
    }
  }
  const place = (r: Rule, position: number | undefined) => {
    if (list.includes(r)) list.splice(list.indexOf(r), 1);
    list.splice(Math.min(position ?? list.length, list.length), 0, r);
  };
  if (method === "GET" && !id) {
    const shown = list.filter((r) => !hidden(r));
    return {
      rules: shown.slice(opts.query.offset, opts.query.offset + opts.query.limit).map(render),
      more: opts.query.offset + opts.query.limit < shown.length,
    };
  }
  if (method === "POST") {
    const { position, ...fields } = opts.body.rule;
    const r: Rule = {
      id: `R${++api.seq}`,
      disabled: false,
      conditions: { operator: "and", subconditions: [] },
      time_frame: null,
      variables: [],
      actions: {},
      ...fields,
    };
    place(r, position);
    if (api.lag) hiddenUntil.set(r.id, api.tick + api.lag);
    return { rule: render(r) };
  }
  const r = list.find((x) => x.id === id);
  if (!r || hidden(r)) throw notFound(method, path);
  if (method === "GET") return { rule: render(r) };
  if (method === "DELETE") return void list.splice(list.indexOf(r), 1);
  api.ruleIds.push(opts.body.rule_id);
  const { position, ...fields } = opts.body.rule;
  Object.assign(r, fields);
  if (position !== undefined) place(r, position);
  return { rule: render(r) };
}

const client = { request, writeCount: 0, credentialTail: async () => "****-key", missingScopes: async () => [] } as unknown as ApiClient;
const journalDir = fs.mkdtempSync(path.join(os.tmpdir(), "ppd-rules-"));
afterAll(() => fs.rmSync(journalDir, { recursive: true, force: true }));
let ctx: AccountContext;
/** A new account context: what a new provider process (a new `pulumi up`) starts from. */
const resetLanes = () =>
  (ctx = new AccountContext({ client, journal: new Journal(journalDir), warn: (m) => void warnings.push(m), consistency: virtualConsistency().consistency }));
const provider = makeProvider(resource, () => ctx);

beforeEach(() => {
  api.rules.clear();
  api.converted.clear();
  api.writes = [];
  api.lag = 0;
  hiddenUntil.clear();
  warnings.length = 0;
  resetLanes();
  api.calls = [];
});

const live = {
  id: "3f1c",
  position: 2,
  disabled: false,
  summary: "Event rule 3f1c",
  conditions: { operator: "and", subconditions: [{ operator: "contains", parameters: { path: "payload.summary", value: "db", options: {} } }] },
  time_frame: { scheduled_weekly: { start_time: 3_600_000, duration: 7_200_000, timezone: "UTC", weekdays: [1, 2] } },
  variables: [{ type: "regex", name: "host", parameters: { value: "h=(\\w+)", path: "payload.source" } }],
  actions: {
    annotate: null,
    event_action: null,
    priority: null,
    severity: { value: "critical" },
    suppress: { value: true, threshold_value: 3, threshold_time_unit: "minutes", threshold_time_amount: 5 },
    suspend: null,
    extractions: [],
  },
};

describe("mapping", () => {
  test("outputs camelCase deep; 'none' actions are dropped", () => {
    expect(toOutputs(live, "PSVC1")).toEqual({
      service: "PSVC1",
      position: 2,
      disabled: false,
      summary: "Event rule 3f1c",
      conditions: { operator: "and", subconditions: [{ operator: "contains", parameters: { path: "payload.summary", value: "db", options: {} } }] },
      timeFrame: { scheduledWeekly: { startTime: 3_600_000, duration: 7_200_000, timezone: "UTC", weekdays: [1, 2] } },
      variables: [{ type: "regex", name: "host", parameters: { value: "h=(\\w+)", path: "payload.source" } }],
      actions: { severity: { value: "critical" }, suppress: { value: true, thresholdValue: 3, thresholdTimeUnit: "minutes", thresholdTimeAmount: 5 } },
    });
  });
  test("body: snake_case deep, only managed fields, actions sent whole with absent kinds as none", () => {
    expect(
      toBody({
        service: "PSVC1",
        adoptId: "x",
        position: 0,
        disabled: true,
        timeFrame: { activeBetween: { startTime: 1, endTime: 2 } },
        actions: { eventAction: { value: "resolve" }, extractions: [{ target: "dedup_key", source: "payload.source", regex: "(.*)" }] },
      }),
    ).toEqual({
      position: 0,
      disabled: true,
      time_frame: { active_between: { start_time: 1, end_time: 2 } },
      actions: {
        annotate: null,
        event_action: { value: "resolve" },
        priority: null,
        severity: null,
        suppress: null,
        suspend: null,
        extractions: [{ target: "dedup_key", source: "payload.source", regex: "(.*)" }],
      },
    });
    expect(toBody({ service: "PSVC1", timeFrame: null, variables: [] })).toEqual({ time_frame: null, variables: [] });
  });
});

describe("diff", () => {
  const olds = toOutputs(live, "PSVC1");
  const diff = (news: Record<string, unknown>) => provider.diff!("3f1c", olds, { service: "PSVC1", ...news, __provider: "p" });

  test("unset fields are not managed; declared values equal to live are no change", async () => {
    await expect(diff({})).resolves.toMatchObject({ changes: false });
    await expect(
      diff({ position: 2, disabled: false, actions: { severity: { value: "critical" }, suppress: { value: true, thresholdValue: 3 } }, adoptId: "x" }),
    ).resolves.toMatchObject({ changes: false });
    await expect(
      diff({ conditions: { operator: "and", subconditions: [{ operator: "contains", parameters: { path: "payload.summary", value: "db" } }] } }),
    ).resolves.toMatchObject({ changes: false });
  });
  test("every field updates in place; service replaces", async () => {
    const cases: Record<string, unknown> = {
      position: 0,
      disabled: true,
      conditions: { operator: "or", subconditions: [{ operator: "contains", parameters: { path: "payload.summary", value: "db" } }] },
      timeFrame: null,
      variables: [],
      actions: { severity: { value: "warning" }, suppress: { value: true } },
    };
    for (const [field, value] of Object.entries(cases)) {
      await expect(diff({ [field]: value }).then((r) => ({ field, ...r }))).resolves.toMatchObject({ field, changes: true, replaces: [] });
    }
    await expect(diff({ service: "PSVC2" })).resolves.toMatchObject({ changes: true, replaces: ["service"] });
  });
  test("actions are managed whole: removing or adding an action kind is a change", async () => {
    await expect(diff({ actions: { severity: { value: "critical" } } })).resolves.toMatchObject({ changes: true, replaces: [] });
    await expect(diff({ actions: { severity: { value: "critical" }, suppress: { value: true }, annotate: { value: "x" } } })).resolves.toMatchObject({
      changes: true,
    });
    expect(actionsMatch({ severity: null }, {})).toBe(true);
    expect(actionsMatch({ extractions: [] }, {})).toBe(true);
  });
});

describe("check", () => {
  const check = (news: Record<string, unknown>) => provider.check!({}, { service: "PSVC1", ...news });
  test("failures name the property", async () => {
    await expect(check({ position: -1 })).resolves.toMatchObject({ failures: [{ property: "", reason: expect.stringMatching(/^position: /) }] });
    await expect(check({ conditions: { operator: "xor", subconditions: [] } })).resolves.toMatchObject({
      failures: [{ property: "", reason: expect.stringMatching(/^conditions\.operator: /) }],
    });
    await expect(check({ conditions: { operator: "and", subconditions: [{ operator: "equals", parameters: { path: "a" } }] } })).resolves.toMatchObject({
      failures: [{ property: "", reason: 'conditions.subconditions[0].parameters.value: is required with operator "equals"' }],
    });
    await expect(check({ timeFrame: {} })).resolves.toMatchObject({
      failures: [{ property: "", reason: 'timeFrame: set exactly one of "activeBetween" and "scheduledWeekly"' }],
    });
    await expect(check({ timeFrame: { activeBetween: { startTime: 5, endTime: 5 } } })).resolves.toMatchObject({
      failures: [{ property: "", reason: expect.stringMatching(/^timeFrame\.activeBetween\.endTime: /) }],
    });
    await expect(check({ timeFrame: { scheduledWeekly: { startTime: 0, duration: 1, timezone: "UTC", weekdays: [0] } } })).resolves.toMatchObject({
      failures: [{ property: "", reason: expect.stringMatching(/^timeFrame\.scheduledWeekly\.weekdays\[0\]: /) }],
    });
    await expect(check({ variables: [{ type: "glob", name: "h", parameters: { value: "x", path: "p" } }] })).resolves.toMatchObject({
      failures: [{ property: "", reason: expect.stringMatching(/^variables\[0\]\.type: /) }],
    });
    await expect(check({ actions: { severity: { value: "fatal" } } })).resolves.toMatchObject({
      failures: [{ property: "", reason: expect.stringMatching(/^actions\.severity\.value: /) }],
    });
    await expect(check({ actions: { extractions: [{ target: "t", source: "s" }] } })).resolves.toMatchObject({
      failures: [{ property: "", reason: expect.stringMatching(/^actions\.extractions\[0\]\.regex: /) }],
    });
    await expect(check({ actions: { bogus: {} } })).resolves.toMatchObject({ failures: [{ reason: expect.stringContaining("bogus") }] });
    await expect(provider.check!({}, {})).resolves.toMatchObject({ failures: [{ property: "", reason: expect.stringMatching(/^service: /) }] });
  });
  test("valid inputs pass", async () => {
    await expect(
      check({ position: 0, conditions: { operator: "and", subconditions: [{ operator: "exists", parameters: { path: "a" } }] }, timeFrame: null }),
    ).resolves.not.toHaveProperty("failures");
  });
});

describe("ordering", () => {
  test("requested positions win, others keep their order in the free slots, past the end is last", () => {
    expect(
      targetOrder(
        ["u1", "a", "u2", "b"],
        new Map([
          ["b", 0],
          ["a", 9],
        ]),
      ),
    ).toEqual(["b", "u1", "u2", "a"]);
    expect(
      targetOrder(
        ["c", "b", "a"],
        new Map([
          ["a", 0],
          ["b", 1],
          ["c", 2],
        ]),
      ),
    ).toEqual(["a", "b", "c"]);
    expect(
      targetOrder(
        ["x", "y"],
        new Map([
          ["y", 0],
          ["x", 0],
        ]),
      ),
    ).toEqual(["x", "y"]); // ties keep current order
  });
  test("moves only positioned rules and skip rules already in place", () => {
    expect(
      planMoves(
        ["a", "b", "c"],
        new Map([
          ["a", 0],
          ["b", 1],
          ["c", 2],
        ]),
      ),
    ).toEqual([]);
    const current = ["x", "u1", "u2", "p"];
    const desired = new Map([
      ["p", 1],
      ["x", 3],
    ]);
    const moves = planMoves(current, desired);
    expect(moves.every((m) => desired.has(m.id))).toBe(true);
    expect(moves.reduce(applyMove, current)).toEqual(["u1", "p", "u2", "x"]);
  });
  test("property: the moves reach the target order and never write an unpositioned rule", () => {
    const scenario = fc.integer({ min: 0, max: 9 }).chain((n) =>
      fc.record({
        order: fc.shuffledSubarray(
          [...Array(n).keys()].map((i) => `r${i}`),
          { minLength: n, maxLength: n },
        ),
        wants: fc.array(fc.option(fc.integer({ min: 0, max: 12 }), { nil: undefined }), { minLength: n, maxLength: n }),
      }),
    );
    fc.assert(
      fc.property(scenario, ({ order, wants }) => {
        const desired = new Map<string, number>();
        order.forEach((id, i) => wants[i] !== undefined && desired.set(id, wants[i]!));
        const moves = planMoves(order, desired);
        expect(moves.reduce(applyMove, order)).toEqual(targetOrder(order, desired));
        expect(moves.every((m) => desired.has(m.id))).toBe(true);
        expect(moves.length).toBeLessThanOrEqual(desired.size);
      }),
      { numRuns: 500 },
    );
  });
  test("a requested position past the end is reported as requested when the rule is last", () => {
    expect(effectivePosition(5, 1, 2)).toBe(5);
    expect(effectivePosition(5, 0, 2)).toBe(0);
    expect(effectivePosition(undefined, 1, 2)).toBe(1);
    expect(effectivePosition(0, 1, 2)).toBe(1);
  });
});

describe("CRUD against the in-memory API", () => {
  const create = (position: number | undefined, extra: Record<string, unknown> = {}) =>
    provider.create!({ service: "PSVC1", ...(position === undefined ? {} : { position }), ...extra, __provider: "p" });

  test("rules created concurrently in any order end at the requested positions, and report them", async () => {
    api.rules.set("PSVC1", [{ id: "U0", actions: {} }]); // an unmanaged rule already there
    const results = await Promise.all([create(3), create(2), create(0), create(1)]);
    const order = api.rules.get("PSVC1")!.map((r) => r.id);
    expect(results.map((r) => order.indexOf(r.id))).toEqual([3, 2, 0, 1]);
    expect(results.map((r) => r.outs.position)).toEqual([3, 2, 0, 1]);
    expect(order[4]).toBe("U0");
    expect(api.writes.filter((w) => w.startsWith("PUT U0"))).toEqual([]);
  });

  test("updates in one run end where requested even when a later move would shift an earlier one", async () => {
    api.rules.set("PSVC1", [{ id: "U0", actions: {} }]);
    const [a, b] = await Promise.all([create(0), create(1)]);
    expect(api.rules.get("PSVC1")!.map((r) => r.id)).toEqual([a.id, b.id, "U0"]);
    resetLanes(); // a new `pulumi up`: a new provider process
    const outs = await Promise.all([
      provider.update!(b.id, b.outs, { service: "PSVC1", position: 1, disabled: true }),
      provider.update!(a.id, a.outs, { service: "PSVC1", position: 2 }),
    ]);
    expect(api.rules.get("PSVC1")!.map((r) => r.id)).toEqual(["U0", b.id, a.id]);
    expect(outs.map((o) => o.outs!.position)).toEqual([1, 2]);
    expect(outs[0].outs!.disabled).toBe(true);
  });

  test("one request per operation when the replies show the rules where they were asked", async () => {
    const a = await create(0);
    const b = await create(1);
    const c = await create(undefined);
    expect(api.calls).toEqual(["POST", "POST", "POST"]);
    api.calls = [];
    await provider.update!(b.id, b.outs, { service: "PSVC1", position: 1, disabled: true });
    expect(api.calls).toEqual([`PUT ${b.id}`]);
    // The description's stricter reading: the body names the rule again (the real service may require it).
    expect(api.ruleIds.at(-1)).toBe(b.id);
    api.calls = [];
    await provider.read!(a.id, a.outs);
    expect(api.calls).toEqual([`GET ${a.id}`]);
    api.calls = [];
    await Promise.all([provider.delete!(c.id, c.outs), provider.delete!(b.id, b.outs), provider.delete!(a.id, a.outs)]);
    expect(api.calls.sort()).toEqual([`DELETE ${a.id}`, `DELETE ${b.id}`, `DELETE ${c.id}`].sort());
  });

  test("a burst that leaves rules out of place costs one listing plus the moves, made by its last write", async () => {
    const results = await Promise.all([create(2), create(1), create(0)]);
    expect(api.rules.get("PSVC1")!.map((r) => r.id)).toEqual(results.map((r) => r.id).reverse());
    expect(api.calls.filter((c) => c === "GET")).toHaveLength(1);
    expect(api.calls.filter((c) => c.startsWith("PUT"))).toHaveLength(1);
  });

  test("rules made moments ago, hidden from the listing and answering 404 for a while, still end at the requested positions, each made once", async () => {
    api.rules.set("PSVC1", [{ id: "U0", actions: {} }]);
    api.lag = 6;
    const results = await Promise.all([create(2), create(1), create(0)]);
    api.lag = 0;
    const order = api.rules.get("PSVC1")!.map((r) => r.id);
    expect(order).toHaveLength(4);
    expect(results.map((r) => order.indexOf(r.id))).toEqual([2, 1, 0]);
    expect(api.writes.filter((w) => w.startsWith("POST"))).toHaveLength(3);
    // A young rule's state records when it was made, for the reads and deletes of later processes.
    expect(results.every((r) => typeof r.outs.__createdAt === "number")).toBe(true);
    resetLanes();
    api.lag = 0;
    const read = await provider.read!(results[0].id, results[0].outs);
    expect(read.props!.__createdAt).toBe(results[0].outs.__createdAt);
  });

  test("a single rule asking for a position past the end reports it and does not drift", async () => {
    const r = await create(4);
    expect(r.outs.position).toBe(4);
    const read = await provider.read!(r.id, r.outs);
    expect(read.props!.position).toBe(4);
    await expect(provider.diff!(r.id, read.props!, { service: "PSVC1", position: 4 })).resolves.toMatchObject({ changes: false });
  });

  test("read of a rule deleted by hand is gone; delete of a gone rule succeeds", async () => {
    const r = await create(undefined, { disabled: true });
    api.rules.set("PSVC1", []);
    await expect(provider.read!(r.id, r.outs)).resolves.toEqual({ id: "", props: {} });
    await expect(provider.delete!(r.id, r.outs)).resolves.toBeUndefined();
  });

  test("adoption writes the declared fields to the existing rule", async () => {
    api.rules.set("PSVC1", [
      { id: "OLD", disabled: false, actions: {} },
      { id: "U1", actions: {} },
    ]);
    const r = await create(1, { adoptId: "OLD", disabled: true });
    expect(r.id).toBe("OLD");
    expect(r.outs).toMatchObject({ position: 1, disabled: true });
    expect(api.rules.get("PSVC1")!.map((x) => x.id)).toEqual(["U1", "OLD"]);
  });

  test("after conversion: create and update fail naming the conversion; delete only warns", async () => {
    const r = await create(0);
    api.converted.add("PSVC1");
    await expect(create(1)).rejects.toMatchObject({ code: "ERR_CONFLICT", message: expect.stringContaining("rules/convert") });
    await expect(provider.update!(r.id, r.outs, { service: "PSVC1", disabled: true })).rejects.toThrow(/converted to event orchestration rules/);
    await expect(provider.delete!(r.id, r.outs)).resolves.toBeUndefined();
    expect(warnings).toEqual([expect.stringContaining(`event rule ${r.id} of service PSVC1 was NOT deleted`)]);
  });
});
