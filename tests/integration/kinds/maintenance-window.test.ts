// MaintenanceWindow against the emulator, driven as the engine drives it: what its lifecycle row does
// not show. Times written in other zones and services in another order are no change; a window under
// way puts its services in maintenance, an end that has passed ends it, and its delete ends it with a
// warning; a window that has ended is never drift, takes no change (preview says so), is replaced by a
// new future, and its delete is a warning (PagerDuty answers 405), not a failure of `destroy`.
import type { Deployed } from "../lifecycle/engine";
import { envOf, expectStatus } from "../lifecycle/env";
import { useStage } from "../lifecycle/stage";

const stage = useStage();

/** A time `ms` from now, in whole seconds (PagerDuty keeps no fraction). */
const inMs = (ms: number) => new Date(Math.ceil((Date.now() + ms) / 1000) * 1000).toISOString().replace(/\.000Z$/, "Z");

async function window(id: string) {
  const res = await stage().api.get(`/maintenance_windows/${id}`);
  return res.status === 404 ? undefined : (await expectStatus(Promise.resolve(res), 200, "GET window")).maintenance_window;
}

const status = async (service: string) => (await expectStatus(stage().api.get(`/services/${service}`), 200, "GET service")).service.status;

const warned = () => stage().warnings.slice();

test("times compare as instants and services as a set: a program that writes them otherwise plans no change, before and after a refresh", async () => {
  const { engine } = stage();
  const env = envOf(stage(), "instants");
  const [a, b] = [await env.service(), await env.service()];
  const declared = { services: [a, b], startTime: "2030-05-01T02:00:00+02:00", endTime: "2030-05-01T04:00:00+02:00", description: "instants" };
  const made = await engine.create("MaintenanceWindow", "instants", declared);
  // The emulator answers in UTC, as PagerDuty answers in the account's zone.
  expect(made.outs).toMatchObject({ startTime: "2030-05-01T00:00:00Z", endTime: "2030-05-01T02:00:00Z" });
  const otherwise = { ...declared, services: [b, a], startTime: "2030-04-30T19:00:00-05:00", endTime: "2030-05-01T02:00:00Z" };
  expect((await engine.plan(made, otherwise)).diff).toMatchObject({ changes: false });
  const read = (await engine.refresh(made))!;
  expect((await engine.plan(read, otherwise)).diff).toMatchObject({ changes: false });
  // A real change is seen: one hour later.
  expect((await engine.plan(read, { ...otherwise, endTime: "2030-05-01T03:00:00Z" })).diff).toMatchObject({ changes: true, replaces: [] });
  const before = warned().length;
  await engine.delete(read);
  expect(await window(made.id)).toBeUndefined();
  expect(warned().slice(before)).toEqual([]);
});

test("a window under way: its services are in maintenance, an end that has passed ends it now, and its delete ends it with a warning", async () => {
  const { engine } = stage();
  const env = envOf(stage(), "under_way");
  const service = await env.service();
  const declared = { services: [service], startTime: "2020-01-01T00:00:00Z", endTime: "2031-01-01T00:00:00Z" };
  let r: Deployed = await engine.create("MaintenanceWindow", "under-way", declared);
  // PagerDuty started it at once: its start is now, which the program's start that has passed satisfies.
  expect(Date.parse(String(r.outs.startTime))).toBeGreaterThan(Date.parse("2026-01-01T00:00:00Z"));
  expect(await status(service)).toBe("maintenance");
  r = (await engine.refresh(r))!;
  expect((await engine.plan(r, declared)).diff).toMatchObject({ changes: false });

  // Ending it by declaring an end that has passed: an update that ends it now (its delete, in PagerDuty's terms).
  const ended = { ...declared, endTime: inMs(-1_000) };
  const plan = await engine.plan(r, ended);
  expect(plan.diff).toMatchObject({ changes: true, replaces: [] });
  const before = warned().length;
  r = await engine.update(r, plan);
  expect(Date.parse(String(r.outs.endTime))).toBeLessThanOrEqual(Date.now());
  expect(warned().slice(before)).toEqual([
    expect.stringMatching(new RegExp(`^maintenance window ${r.id}: the declared end .* has passed, so PagerDuty ended the window now$`)),
  ]);
  expect(await status(service)).toBe("active");
  // It stays as history, and the program that ended it plans nothing more.
  expect(await window(r.id)).toBeDefined();
  r = (await engine.refresh(r))!;
  expect((await engine.plan(r, ended)).diff).toMatchObject({ changes: false });

  // Another window under way: destroy ends it, and says so.
  const next = await engine.create("MaintenanceWindow", "under-way-2", declared);
  const at = warned().length;
  await engine.delete(next);
  expect(warned().slice(at)).toEqual([`maintenance window ${next.id} had begun: PagerDuty ended it now rather than deleting it, and keeps it as history`]);
  expect(Date.parse((await window(next.id)).end_time)).toBeLessThanOrEqual(Date.now());
});

test("a window that has ended: time passing is no drift, a change fails at preview, a new future replaces it, and its delete is done with a warning", async () => {
  const { engine } = stage();
  const env = envOf(stage(), "ended");
  const service = await env.service();
  const declared = { services: [service], startTime: "2020-01-01T00:00:00Z", endTime: inMs(3_000), description: "short" };
  const made = await engine.create("MaintenanceWindow", "ended", declared);
  // Planned while it lasts, and again once it has ended: nothing changes because time passed.
  expect((await engine.plan(made, declared)).diff).toMatchObject({ changes: false });
  await new Promise((resolve) => setTimeout(resolve, Date.parse(declared.endTime) - Date.now() + 500));
  const read = (await engine.refresh(made))!;
  expect((await engine.plan(read, declared)).diff).toMatchObject({ changes: false });

  await expect(engine.plan(read, { ...declared, description: "longer" })).rejects.toThrow(
    `description: the window ended at ${read.outs.endTime}: PagerDuty refuses changes to a window that has ended`,
  );
  // The same resource with a new future: a new window (the old one stays as history).
  const again = { ...declared, startTime: "2034-01-01T00:00:00Z", endTime: "2034-01-01T01:00:00Z", description: "next time" };
  const plan = await engine.plan(read, again);
  expect(plan.diff).toMatchObject({ changes: true, replaces: ["startTime", "endTime"] });
  const before = warned().length;
  const replaced = await engine.replace(read, again, plan);
  expect(replaced.id).not.toBe(read.id);
  expect(warned().slice(before)).toEqual([
    `maintenance window ${read.id} ended at ${read.outs.endTime}: PagerDuty keeps a window that has ended as history, so there is nothing to delete`,
  ]);
  expect(await window(read.id)).toMatchObject({ description: "short" });
  expect(await window(replaced.id)).toMatchObject({ start_time: "2034-01-01T00:00:00Z", description: "next time" });
  await engine.delete(replaced);
  expect(await window(replaced.id)).toBeUndefined();
});

test("a new window must end in the future, named at preview; a window made with no description reads back with none and plans no change", async () => {
  const { engine } = stage();
  const env = envOf(stage(), "bare");
  const service = await env.service();
  await expect(
    engine.create("MaintenanceWindow", "past", { services: [service], startTime: "2020-01-01T00:00:00Z", endTime: "2020-01-02T00:00:00Z" }),
  ).rejects.toThrow("endTime: 2020-01-02T00:00:00Z has passed: PagerDuty makes no window that has ended; declare an end still to come");
  const bare = { services: [service], startTime: "2030-07-01T00:00:00Z", endTime: "2030-07-01T01:00:00Z" };
  const made = await engine.create("MaintenanceWindow", "bare", bare);
  expect(made.outs.description).toBe("");
  expect((await window(made.id)).description).toBeNull();
  expect((await engine.plan((await engine.refresh(made))!, bare)).diff).toMatchObject({ changes: false });
  await engine.delete(made);
});
