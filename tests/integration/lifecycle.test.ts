// The lifecycle table (tests/integration/lifecycle/): every kind driven as the engine drives a
// provider, against emulators in this process (one with its lag on), without the Pulumi CLI. The
// rows run at once in beforeAll (they are independent: each makes its own services and objects);
// each test reports one step of one row. docs/contributing.md says which end-to-end checks this
// table took over.
import { type Outcome, runRow } from "./lifecycle/driver";
import { isApplicable, OPTIONAL, type Row, STEPS, type Step } from "./lifecycle/row";
import { ROWS } from "./lifecycle/rows";
import { Stage } from "./lifecycle/stage";

/**
 * The lagging emulator hides a new object for LAG_MS, more than the 3 s of second looks a 404 of an
 * object of unknown age gets, so only the wait for a young object finds it; the provider waits up to
 * WINDOW_S for one (pagerduty:consistencyWindow). Without lag, a window of 0 believes a 404 after the
 * second looks.
 */
const LAG_MS = 4_000;
const WINDOW_S = 30;

const rows = Object.values(ROWS) as Row[];
const outcomes = new Map<string, Map<Step, Outcome>>();
let main: Stage;
let lagged: Stage;

beforeAll(async () => {
  [main, lagged] = await Promise.all([Stage.start({ windowSeconds: 0 }), Stage.start({ lagMs: LAG_MS, windowSeconds: WINDOW_S })]);
  await Promise.all(rows.map(async (row) => outcomes.set(row.definition.kind, await runRow(row, main, lagged))));
}, 120_000);

afterAll(async () => {
  await Promise.all([main?.close(), lagged?.close()]);
});

const applicable = (row: Row, step: Step) => {
  const key = OPTIONAL[step];
  return !key || isApplicable(row[key]);
};

describe.each(rows.map((row) => [row.definition.kind, row] as const))("%s", (_kind, row) => {
  test.each(STEPS.filter((step) => applicable(row, step)))("%s", (step) => {
    const outcome = outcomes.get(row.definition.kind)?.get(step);
    if (!outcome) throw new Error("the row did not run");
    if ("failed" in outcome) throw outcome.failed;
    if ("notRun" in outcome) throw new Error(`not run: the step "${outcome.notRun}" failed`);
  });
});
