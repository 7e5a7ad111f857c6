// Runs one row of the lifecycle table (row.ts) the way the engine drives a provider: each step that
// writes starts with check, then diff, create, read, update or delete, with the engine's shapes
// (engine.ts). The steps of a row run in order against one emulator; its young-object lag runs at
// the same time against another, whose lag is on. Each step's outcome is recorded, so the test file
// reports one test per step while the rows run at once.
import { importIdOf } from "../../../provider/kernel/define";
import type { ResourceKind } from "../../../provider/registry";
import { moduleOf } from "../../../scripts/generate-sdk";
import type { Deployed, Engine } from "./engine";
import { envOf } from "./env";
import { type Declared, type Env, isApplicable, type Row, type Step } from "./row";
import type { Stage } from "./stage";

type Props = Record<string, unknown>;

/** A step's outcome: passed, failed, or not run because an earlier step of the row failed. */
export type Outcome = { passed: true } | { failed: unknown } | { notRun: Step };

/** Pulumi's access and refresh tokens (the emulator's start with pde_/pdr_). */
const TOKEN = /pd[er]_[A-Za-z0-9_-]{8,}/;

class RowRun {
  private readonly env: Env;
  private readonly engine: Engine;
  private readonly kind: ResourceKind;
  /** What the program declares now, and the resource's state. */
  private declared!: Declared;
  private r!: Deployed;

  constructor(
    private readonly row: Row,
    private readonly stage: Stage,
  ) {
    this.kind = row.definition.kind as ResourceKind;
    this.env = envOf(stage, moduleOf(this.kind).replace(/-/g, "_"));
    this.engine = stage.engine;
  }

  /** A state the engine would write: it never holds a credential or a token (a failure does not print them either). */
  private recorded(r: Deployed): Deployed {
    const text = JSON.stringify(r);
    if (this.stage.secrets.some((secret) => text.includes(secret)) || TOKEN.test(text)) throw new Error(`the state of ${r.kind} ${r.id} holds a credential`);
    return r;
  }

  /** `preview --refresh` shows no changes: the read finds the object and the program's inputs match it. */
  private async clean(r: Deployed, declared: Declared): Promise<Deployed> {
    const read = await this.engine.refresh(r);
    expect(read?.id).toBe(r.id);
    const plan = await this.engine.plan(this.recorded(read!), declared);
    expect(plan.diff).toMatchObject({ changes: false });
    return read!;
  }

  /** `up` of inputs the plan must show as an in-place update (same id). */
  private async updateInPlace(r: Deployed, declared: Declared): Promise<Deployed> {
    const plan = await this.engine.plan(r, declared);
    expect(plan.diff).toMatchObject({ changes: true });
    expect(plan.diff.replaces ?? []).toEqual([]);
    const updated = this.recorded(await this.engine.update(r, plan));
    expect(updated.id).toBe(r.id);
    return updated;
  }

  async create(): Promise<void> {
    this.declared = await this.row.create(this.env);
    this.r = this.recorded(await this.engine.create(this.kind, "subject", this.declared));
    expect(await this.row.live(this.env, this.r)).toBeDefined();
  }

  async refresh(): Promise<void> {
    this.r = await this.clean(this.r, this.declared);
  }

  async handChange(): Promise<void> {
    const spec = this.row.handChange;
    if (!isApplicable(spec)) return;
    const before = await this.row.live(this.env, this.r);
    await spec.make(this.env, this.r);
    expect(await this.row.live(this.env, this.r)).not.toEqual(before);
    // The next command finds it: a new process. Within one, a listing another row's reads took
    // before the change may answer this read (account/listings.ts: a burst's reads share one, and
    // only this process's own writes retire it), which made this step fail now and then.
    const found = await this.stage.laterProcess().refresh(this.r);
    if (spec.removes) {
      // Refresh drops it from the state; `up` makes it again.
      expect(found).toBeUndefined();
      this.r = this.recorded(await this.engine.create(this.kind, "subject", this.declared));
    } else {
      expect(found?.id).toBe(this.r.id);
      this.r = await this.updateInPlace(this.recorded(found!), this.declared);
    }
    expect(await this.row.live(this.env, this.r)).toEqual(before);
    this.r = await this.clean(this.r, this.declared);
  }

  async update(): Promise<void> {
    const spec = this.row.update;
    if (!isApplicable(spec)) return;
    const next = await spec.inputs(this.env, this.declared);
    const updated = await this.updateInPlace(this.r, next);
    expect(await this.row.live(this.env, updated)).toMatchObject(spec.live(next));
    [this.declared, this.r] = [next, await this.clean(updated, next)];
  }

  async replace(): Promise<void> {
    const spec = this.row.replace;
    if (!isApplicable(spec)) return;
    const next = await spec.inputs(this.env, this.declared);
    const plan = await this.engine.plan(this.r, next);
    expect(plan.diff).toMatchObject({ changes: true });
    expect(plan.diff.replaces?.length).toBeGreaterThan(0);
    for (const field of plan.diff.replaces!) expect(this.row.definition.replaceOn).toContain(field);
    const made = this.recorded(await this.engine.replace(this.r, next, plan));
    expect(made.id).not.toBe(this.r.id);
    await this.row.deleted(this.env, this.r);
    [this.declared, this.r] = [next, await this.clean(made, next)];
  }

  async adopt(): Promise<void> {
    const spec = this.row.adopt;
    if (!isApplicable(spec)) return;
    const hand = await this.row.handMade(this.env);
    const declared = spec.inputs(spec.by === "adoptId" ? { ...hand.declared, adoptId: hand.id } : hand.declared);
    const adopted = this.recorded(await this.engine.create(this.kind, "adopted", declared));
    expect(adopted.id).toBe(hand.id);
    // The engine can only show a create: check says it takes the object over.
    if (spec.by === "adoptId") expect(this.stage.warnings).toContainEqual(expect.stringContaining(`adoptId ${hand.id}: shown as a create`));
    expect(await this.row.live(this.env, adopted)).toMatchObject(spec.live);
    const state = await this.clean(adopted, declared);
    await this.engine.delete(state);
    await this.row.deleted(this.env, state);
  }

  /** `pulumi import` through the plugin (the door that imports): a read with no state, then the program that declares it. */
  async import(): Promise<void> {
    if (!isApplicable(this.row.import)) return;
    const hand = await this.row.handMade(this.env);
    // The id a person passes to `pulumi import`, in the form the definition's `importId` documents.
    const importId = importIdOf(this.row.definition, hand.id, hand.declared as Record<string, unknown>) ?? hand.id;
    const { plugin } = this.engine;
    const urn = this.engine.urn(this.kind, "imported");
    const read = await plugin.read(importId, urn, {});
    expect(read.id).toBe(importId);
    const checked = await plugin.check(urn, read.inputs as Props, hand.declared as Props);
    expect(checked.failures ?? []).toEqual([]);
    expect(await plugin.diff(importId, urn, read.props as Props, checked.inputs as Props)).toMatchObject({ changes: false });
    await plugin.delete(importId, urn, read.props as Props);
    await this.row.deleted(this.env, { kind: this.kind, name: "imported", id: hand.id, inputs: checked.inputs as Props, outs: read.props as Props });
  }

  async delete(): Promise<void> {
    await this.engine.delete(this.r);
    await this.row.deleted(this.env, this.r);
  }

  /** Once the object is gone, refresh drops it (an empty id) and a second delete is done already. */
  async gone(): Promise<void> {
    const { gone } = this.row;
    if (gone.by === "its service deleted by hand") expect((await this.env.api.delete(`/services/${gone.service(this.r)}`)).status).toBe(204);
    expect(await this.engine.refresh(this.r)).toBeUndefined();
    await expect(this.engine.delete(this.r)).resolves.toBeUndefined();
  }
}

/**
 * The young-object lag, against a stage whose emulator hides every new object for a while: either
 * the object is hidden right after its create and a later process's read (`pulumi refresh` after
 * `up`) waits it out rather than dropping it, or its service is hidden and its create waits it out.
 */
async function lag(row: Row, stage: Stage): Promise<void> {
  const spec = row.lag;
  if (!isApplicable(spec)) return;
  const kind = row.definition.kind as ResourceKind;
  const env = envOf(stage, `young_${moduleOf(kind).replace(/-/g, "_")}`);
  const declared = await row.create(env);
  if (spec.hidden === "service") {
    expect((await env.api.get(`/services/${spec.service(declared)}`)).status).toBe(404);
    const made = await stage.engine.create(kind, "young", declared);
    expect(await row.live(env, made)).toBeDefined();
    await stage.engine.delete(made);
    return;
  }
  const made = await stage.engine.create(kind, "young", declared);
  expect(await row.live(env, made)).toBeUndefined();
  const later = stage.laterProcess();
  const read = await later.refresh(made);
  expect(read?.id).toBe(made.id);
  await later.delete(read!);
}

/** Runs a row: its steps in order on `main`, its lag on `lagged` meanwhile. */
export async function runRow(row: Row, main: Stage, lagged: Stage): Promise<Map<Step, Outcome>> {
  const run = new RowRun(row, main);
  const outcomes = new Map<Step, Outcome>();
  const steps: [Step, () => Promise<void>][] = [
    ["create", () => run.create()],
    ["refresh shows no diff", () => run.refresh()],
    ["a hand change is found and put back", () => run.handChange()],
    ["an in-place update", () => run.update()],
    ["a replacement", () => run.replace()],
    ["adoption", () => run.adopt()],
    ["import", () => run.import()],
    ["delete", () => run.delete()],
    ["read and delete after it is gone", () => run.gone()],
  ];
  const young = lag(row, lagged).then(
    () => outcomes.set("young-object lag", { passed: true }),
    (e) => outcomes.set("young-object lag", { failed: e }),
  );
  let failed: Step | undefined;
  for (const [step, f] of steps) {
    if (failed) {
      outcomes.set(step, { notRun: failed });
      continue;
    }
    try {
      await f();
      outcomes.set(step, { passed: true });
    } catch (e) {
      outcomes.set(step, { failed: e });
      failed = step;
    }
  }
  await young;
  return outcomes;
}
