import { UNKNOWN } from "../../../../provider/kernel/check";
import { AmbiguousCreateError } from "../../../../provider/operations/recovery";
import { instantOf } from "../../../../provider/kernel/formats";
import { resource, windowDiff, windowProblems } from "../../../../provider/resources/maintenance-window";
import { offline, reply, replyGone, useApi } from "../../support/resource-api";
import { virtualConsistency } from "../../support/virtual-consistency";

const api = useApi();
const provider = api.provider(resource);
const ONE = "/maintenance_windows/PMW1";
const OPEN = (services: string[]) => `/maintenance_windows?${services.map((s) => `service_ids%5B%5D=${s}`).join("&")}&filter=open&limit=100&offset=0`;

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
const declared = { services: ["PS1", "PS2"], startTime: "2030-03-14T02:00:00Z", endTime: "2030-03-14T04:00:00Z", description: "Postgres 17 upgrade" };
const live = (extra: Record<string, unknown> = {}) => ({
  id: "PMW1",
  type: "maintenance_window",
  summary: "Postgres 17 upgrade",
  self: "https://api.test/maintenance_windows/PMW1",
  html_url: "https://acme.pagerduty.com/maintenance_windows#PMW1",
  sequence_number: 7,
  // PagerDuty answers in the account's time zone.
  start_time: "2030-03-14T03:00:00+01:00",
  end_time: "2030-03-14T05:00:00+01:00",
  description: "Postgres 17 upgrade",
  created_by: null,
  services: [
    { id: "PS2", type: "service_reference" },
    { id: "PS1", type: "service_reference" },
  ],
  teams: [],
  ...extra,
});
const state = { services: ["PS2", "PS1"], startTime: live().start_time, endTime: live().end_time, description: "Postgres 17 upgrade" };

describe("instants", () => {
  test("an ISO 8601 time with an offset or Z is an instant; one without an offset, or a day the month lacks, is not", () => {
    expect(instantOf("2030-01-01T01:00:00+01:00")).toBe(instantOf("2030-01-01T00:00:00Z"));
    expect(instantOf("2030-01-01T00:00Z")).toBe(Date.UTC(2030, 0, 1));
    expect(instantOf("2030-01-01T00:00:00.250Z")).toBe(Date.UTC(2030, 0, 1) + 250);
    for (const bad of ["2030-01-01T00:00:00", "2030-02-30T00:00:00Z", "2030-01-01 00:00:00Z", "2030-01-01T24:00:00Z", "tomorrow", 5])
      expect(instantOf(bad)).toBeUndefined();
    expect(instantOf("2028-02-29T00:00:00Z")).toBe(Date.UTC(2028, 1, 29));
  });
});

describe("check", () => {
  const failures = async (news: Record<string, unknown>, olds: Record<string, unknown> = {}) =>
    ((await provider.check!(olds, { ...declared, ...news })).failures ?? []).map((f) => f.reason);

  test("names the field: times in ISO 8601 with an offset, the end after the start, at least one service, none twice", async () => {
    expect(await failures({ startTime: "2030-03-14 02:00" })).toEqual([
      'startTime: must be an ISO 8601 date and time with an offset or Z, such as "2030-03-14T02:00:00Z" or "2030-03-14T03:00:00+01:00"; got "2030-03-14 02:00"',
    ]);
    expect(await failures({ endTime: "2030-03-14T04:00:00" })).toEqual([
      expect.stringMatching(/^endTime: must be an ISO 8601 date and time with an offset or Z/),
    ]);
    expect(await failures({ endTime: "2030-03-14T03:00:00+01:00" })).toEqual([
      "endTime: must be after startTime (2030-03-14T02:00:00Z); got 2030-03-14T03:00:00+01:00",
    ]);
    expect(await failures({ services: [] })).toEqual(["services: must list at least one service"]);
    expect(await failures({ services: ["PS1", "PS2", "PS1"] })).toEqual(['services[2]: "PS1" is listed twice']);
    expect(await failures({ services: [""] })).toEqual(["services[0]: must be a service id"]);
    expect(await failures({})).toEqual([]);
  });

  test("values not known yet are not judged", async () => {
    expect(await failures({ startTime: UNKNOWN, endTime: "2020-01-01T00:00:00Z" })).toEqual([
      "endTime: 2020-01-01T00:00:00Z has passed: PagerDuty makes no window that has ended; declare an end still to come",
    ]);
    expect(await failures({ endTime: UNKNOWN, services: [UNKNOWN, UNKNOWN] })).toEqual([]);
  });

  test("a new window must end in the future; a start that has passed is taken (PagerDuty starts the window at once)", async () => {
    expect(await failures({ startTime: "2020-01-01T00:00:00Z", endTime: "2021-01-01T00:00:00Z" })).toEqual([
      "endTime: 2021-01-01T00:00:00Z has passed: PagerDuty makes no window that has ended; declare an end still to come",
    ]);
    expect(await failures({ startTime: "2020-01-01T00:00:00Z" })).toEqual([]);
  });

  test("a window that has ended takes no change but a new future; one still to come cannot be moved into the past", async () => {
    const ended = { ...declared, startTime: "2020-01-01T00:00:00Z", endTime: "2020-01-01T02:00:00Z" };
    expect(await failures({ ...ended, description: "other" }, ended)).toEqual([
      "description: the window ended at 2020-01-01T02:00:00Z: PagerDuty refuses changes to a window that has ended; declare a new window, or remove this one from the program (its delete then leaves it as history)",
    ]);
    expect(await failures({ ...ended, services: ["PS3"] }, ended)).toEqual([expect.stringMatching(/^services: the window ended at 2020-01-01T02:00:00Z: /)]);
    // Its times may be written otherwise, its services in another order: nothing changes.
    expect(await failures({ ...ended, services: ["PS2", "PS1"], endTime: "2020-01-01T03:00:00+01:00" }, ended)).toEqual([]);
    // A new future for it is a replacement, which is checked as a create.
    expect(await failures({ ...ended, endTime: "2030-01-01T00:00:00Z", description: "other" }, ended)).toEqual([]);
    expect(await failures({ startTime: "2020-01-01T00:00:00Z", endTime: "2020-01-02T00:00:00Z" }, declared)).toEqual([
      "endTime: 2020-01-02T00:00:00Z has passed, and the window has not begun: a window still to come cannot be moved into the past; remove it instead",
    ]);
    // A window under way may be ended by an end that has passed.
    expect(windowProblems({ ...declared, endTime: iso(Date.now() - HOUR) }, { ...declared, startTime: iso(Date.now() - 2 * HOUR) })).toEqual([]);
  });
});

describe("diff", () => {
  const now = Date.parse("2030-01-01T00:00:00Z");
  const plan = (olds: Record<string, unknown>, news: Record<string, unknown>, at = now) => windowDiff(olds, { ...declared, ...news }, at);

  test("times compare as instants and services as a set: the API's zone and order are no change", () => {
    expect(plan(state, {})).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
    expect(plan(state, { services: ["PS2", "PS1"], startTime: "2030-03-13T21:00:00-05:00" })).toMatchObject({ changes: false });
  });

  test("a window still to come updates every field in place", () => {
    expect(plan(state, { startTime: "2030-03-14T01:00:00Z" })).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    expect(plan(state, { endTime: "2030-03-14T06:00:00Z" })).toMatchObject({ changes: true, replaces: [] });
    expect(plan(state, { services: ["PS1"] })).toMatchObject({ changes: true, replaces: [] });
    expect(plan(state, { description: "Postgres 18 upgrade" })).toMatchObject({ changes: true, replaces: [] });
  });

  test("an unset description is not managed", () => {
    const { description: _, ...rest } = declared;
    expect(windowDiff({ ...state, description: "set by hand" }, rest, now)).toMatchObject({ changes: false });
  });

  test("a window that has begun keeps its start: a start that has passed is no change, one still to come replaces it", () => {
    const ongoing = { ...state, startTime: "2029-12-31T23:30:00Z" };
    // PagerDuty moved the declared start that had passed to the moment it made the window.
    expect(plan(ongoing, { startTime: "2029-06-01T00:00:00Z" })).toMatchObject({ changes: false });
    expect(plan(ongoing, { startTime: "2029-12-31T23:45:00Z" })).toMatchObject({ changes: false });
    expect(plan(ongoing, { startTime: "2030-01-02T00:00:00Z" })).toEqual({ changes: true, replaces: ["startTime"], deleteBeforeReplace: false });
    expect(plan(ongoing, { startTime: "2029-06-01T00:00:00Z", endTime: "2030-03-14T06:00:00Z" })).toMatchObject({ changes: true, replaces: [] });
  });

  test("a window that has ended is never drift; an end still to come replaces it", () => {
    const ended = { ...state, startTime: "2029-12-31T20:00:00Z", endTime: "2029-12-31T22:00:00Z" };
    expect(plan(ended, { startTime: "2029-12-31T20:00:00Z", endTime: "2029-12-31T22:00:00Z" })).toMatchObject({ changes: false });
    // The declared end passed later than PagerDuty's (the window was ended early, by a delete): both are history.
    expect(plan(ended, { startTime: "2029-12-31T20:00:00Z", endTime: "2029-12-31T23:00:00Z" })).toMatchObject({ changes: false });
    expect(plan(ended, { startTime: "2029-12-31T20:00:00Z", endTime: "2030-01-01T01:00:00Z" })).toEqual({
      changes: true,
      replaces: ["endTime"],
      deleteBeforeReplace: false,
    });
  });

  test("a value not known yet plans at least what a known one would", () => {
    const ongoing = { ...state, startTime: "2029-12-31T23:30:00Z" };
    expect(plan(ongoing, { startTime: UNKNOWN })).toMatchObject({ changes: true, replaces: ["startTime"] });
    expect(plan(state, { startTime: UNKNOWN })).toMatchObject({ changes: true, replaces: [] });
    expect(plan(state, { services: [UNKNOWN] })).toMatchObject({ changes: true });
    expect(plan(state, { description: UNKNOWN })).toMatchObject({ changes: true });
    expect(
      plan({ ...state, endTime: "2029-12-31T22:00:00Z", startTime: "2029-12-31T20:00:00Z" }, { startTime: "2029-12-31T20:00:00Z", endTime: UNKNOWN }),
    ).toMatchObject({
      replaces: ["endTime"],
    });
  });

  test("the provider's diff ignores adoptId", async () => {
    await expect(offline(resource).diff!("PMW1", state, { ...declared, adoptId: "PMW1", __provider: "p" })).resolves.toMatchObject({ changes: false });
  });
});

describe("create", () => {
  test("one POST with service references; outputs as PagerDuty reports them", async () => {
    reply(api, "POST", "/maintenance_windows", { maintenance_window: live() }, 201);
    const r = await provider.create!({ ...declared, __provider: "p", __origin: "o1" });
    expect(api.calls[0].body).toEqual({
      maintenance_window: {
        type: "maintenance_window",
        start_time: "2030-03-14T02:00:00Z",
        end_time: "2030-03-14T04:00:00Z",
        description: "Postgres 17 upgrade",
        services: [
          { id: "PS1", type: "service_reference" },
          { id: "PS2", type: "service_reference" },
        ],
      },
    });
    expect(r.id).toBe("PMW1");
    expect(r.outs).toMatchObject({
      services: ["PS2", "PS1"],
      startTime: "2030-03-14T03:00:00+01:00",
      endTime: "2030-03-14T05:00:00+01:00",
      description: "Postgres 17 upgrade",
      sequenceNumber: 7,
      htmlUrl: "https://acme.pagerduty.com/maintenance_windows#PMW1",
      teams: [],
    });
    // And the program's inputs plan no change against it.
    await expect(provider.diff!("PMW1", r.outs, { ...declared, __provider: "p" })).resolves.toMatchObject({ changes: false });
  });

  test("without a description none is sent, and the window's reads back as empty", async () => {
    const { description: _, ...bare } = declared;
    reply(api, "POST", "/maintenance_windows", { maintenance_window: live({ description: null, summary: undefined }) }, 201);
    const r = await provider.create!({ ...bare, __provider: "p" });
    expect(api.calls[0].body.maintenance_window).not.toHaveProperty("description");
    expect(r.outs).toMatchObject({ description: "" });
    await expect(provider.diff!("PMW1", r.outs, { ...bare, __provider: "p" })).resolves.toMatchObject({ changes: false });
  });

  test("a lost reply with a window like it there stops, naming the window (PagerDuty keeps no creation time or creator to prove it)", async () => {
    api.reset({ consistency: virtualConsistency(0).consistency });
    reply(api, "POST", "/maintenance_windows", { error: { message: "Bad Gateway", code: 2000 } }, 502);
    reply(api, "GET", OPEN(["PS1", "PS2"]), { maintenance_windows: [live(), live({ id: "POTHER", end_time: "2030-03-14T06:00:00+01:00" })], more: false });
    const err = await provider.create!({ ...declared, __provider: "p" }).catch((e) => e);
    expect(err).toBeInstanceOf(AmbiguousCreateError);
    expect(err.candidates).toEqual(["PMW1"]);
    expect(err.message).toMatch(/window PMW1 hold the declared services and times, but PagerDuty records no creation time .* Adopt it with `adoptId`/);
  });

  test("a lost reply with no window like it there is sent again: nothing was made", async () => {
    api.reset({ consistency: virtualConsistency(0).consistency });
    reply(api, "POST", "/maintenance_windows", { error: { message: "Bad Gateway", code: 2000 } }, 502);
    reply(api, "GET", OPEN(["PS1", "PS2"]), { maintenance_windows: [live({ description: "something else" })], more: false });
    reply(api, "POST", "/maintenance_windows", { maintenance_window: live() }, 201);
    await expect(provider.create!({ ...declared, __provider: "p" })).resolves.toMatchObject({ id: "PMW1" });
  });

  test("adoption by adoptId reads the window and writes only when it differs", async () => {
    reply(api, "GET", ONE, { maintenance_window: live() });
    await expect(provider.create!({ ...declared, adoptId: "PMW1" })).resolves.toMatchObject({ id: "PMW1" });
    expect(api.calls.map((c) => c.method)).toEqual(["GET"]);
    reply(api, "GET", ONE, { maintenance_window: live() });
    reply(api, "PUT", ONE, { maintenance_window: live({ description: "moved" }) });
    await expect(provider.create!({ ...declared, description: "moved", adoptId: "PMW1" })).resolves.toMatchObject({ outs: { description: "moved" } });
    expect(api.calls[2].body.maintenance_window).toMatchObject({ description: "moved", start_time: declared.startTime });
  });

  test("findExisting lists the open windows of the declared services and keeps those with the declared times", async () => {
    reply(api, "GET", OPEN(["PS1", "PS2"]), { maintenance_windows: [live(), live({ id: "P2", start_time: "2030-03-14T01:00:00Z" })], more: false });
    await expect(resource.findExisting!(api.ctx().client, declared)).resolves.toEqual(["PMW1"]);
    expect(resource.describe!(declared)).toBe("maintenance window of PS1, PS2 from 2030-03-14T02:00:00Z to 2030-03-14T04:00:00Z");
  });
});

describe("read, update, delete", () => {
  test("read reports the window; 404 means gone", async () => {
    reply(api, "GET", ONE, { maintenance_window: live({ description: "changed by hand" }) });
    const read = await provider.read!("PMW1", { ...state });
    expect(read.props).toMatchObject({ description: "changed by hand" });
    await expect(provider.diff!("PMW1", read.props!, { ...declared, __provider: "p" })).resolves.toMatchObject({ changes: true, replaces: [] });
    replyGone(api, "GET", ONE);
    await expect(provider.read!("PMW1", { ...state })).resolves.toMatchObject({ id: "" });
  });

  test("a window still to come is PUT whole", async () => {
    reply(api, "PUT", ONE, { maintenance_window: live({ end_time: "2030-03-14T07:00:00+01:00" }) });
    const u = await provider.update!("PMW1", { ...state }, { ...declared, endTime: "2030-03-14T06:00:00Z" });
    expect(api.calls[0].body.maintenance_window).toMatchObject({ start_time: declared.startTime, end_time: "2030-03-14T06:00:00Z" });
    expect(u.outs).toMatchObject({ endTime: "2030-03-14T07:00:00+01:00" });
  });

  test("a window that has begun is PUT without its start, which cannot move", async () => {
    const begun = { ...state, startTime: iso(Date.now() - HOUR) };
    reply(api, "PUT", ONE, { maintenance_window: live({ start_time: begun.startTime, services: [{ id: "PS3" }] }) });
    await provider.update!("PMW1", begun, { ...declared, startTime: "2020-01-01T00:00:00Z", services: ["PS3"] });
    expect(api.calls[0].body.maintenance_window).not.toHaveProperty("start_time");
    expect(api.calls[0].body.maintenance_window.services).toEqual([{ id: "PS3", type: "service_reference" }]);
  });

  test("an end that has passed ends a window under way now (DELETE ends it), and says so", async () => {
    const begun = { ...state, startTime: iso(Date.now() - 2 * HOUR) };
    const ended = iso(Date.now());
    reply(api, "DELETE", ONE, undefined, 204);
    reply(api, "GET", ONE, { maintenance_window: live({ start_time: begun.startTime, end_time: ended }) });
    const u = await provider.update!("PMW1", begun, { ...declared, startTime: begun.startTime, endTime: iso(Date.now() - HOUR), services: ["PS2", "PS1"] });
    expect(api.calls.map((c) => c.method)).toEqual(["DELETE", "GET"]);
    expect(u.outs).toMatchObject({ endTime: ended });
    expect(api.warnings).toEqual([expect.stringMatching(/^maintenance window PMW1: the declared end .* has passed, so PagerDuty ended the window now$/)]);
  });

  test("a window that has ended is not written", async () => {
    const ended = { ...state, startTime: "2020-01-01T00:00:00Z", endTime: "2020-01-01T02:00:00Z" };
    await expect(provider.update!("PMW1", ended, { ...declared, description: "x" })).rejects.toThrow(
      "maintenance window PMW1 ended at 2020-01-01T02:00:00Z: PagerDuty refuses changes to a window that has ended",
    );
  });

  test("delete: a window still to come is deleted, one under way ended, one that has ended left as history; each says which", async () => {
    reply(api, "DELETE", ONE, undefined, 204);
    await provider.delete!("PMW1", { ...state });
    expect(api.warnings).toEqual([]);
    reply(api, "DELETE", ONE, undefined, 204);
    await provider.delete!("PMW1", { ...state, startTime: iso(Date.now() - HOUR) });
    expect(api.warnings).toEqual(["maintenance window PMW1 had begun: PagerDuty ended it now rather than deleting it, and keeps it as history"]);
    api.warnings.length = 0;
    reply(api, "DELETE", ONE, { error: { message: "Method Not Allowed", code: 2000 } }, 405);
    await expect(provider.delete!("PMW1", { ...state, startTime: "2020-01-01T00:00:00Z", endTime: "2020-01-01T02:00:00Z" })).resolves.toBeUndefined();
    expect(api.warnings).toEqual([
      "maintenance window PMW1 ended at 2020-01-01T02:00:00Z: PagerDuty keeps a window that has ended as history, so there is nothing to delete",
    ]);
    replyGone(api, "DELETE", ONE);
    await expect(provider.delete!("PMW1", { ...state })).resolves.toBeUndefined();
  });

  test("another refusal of a delete fails it", async () => {
    reply(api, "DELETE", ONE, { error: { message: "Forbidden", code: 2010 } }, 403);
    await expect(provider.delete!("PMW1", { ...state })).rejects.toThrow(/403/);
  });
});
