// Reading the stack's own state during a deployment: which pending creates an earlier run left,
// told apart from this run's own (the engine writes one before each create it asks for).
import { StackState, type Checkpoint } from "../../../../provider/account/stack-state";

const TYPE = "pulumi-nodejs:dynamic/pagerduty:ServiceIntegration";
const op = (origin: string) => ({ type: "creating", resource: { urn: `urn:x::${origin}`, type: TYPE, inputs: { __origin: origin } } });
const checkpoint = (origins: string[], resources: Checkpoint["deployment"]["resources"] = []): Checkpoint => ({
  version: 3,
  deployment: { resources, pending_operations: origins.map(op) },
});

/** An exporter answering from a list of checkpoints in turn, each after `ms`. */
function exporter(answers: Checkpoint[], ms = 20) {
  const calls: number[] = [];
  const fn = async () => {
    calls.push(Date.now());
    await new Promise((r) => setTimeout(r, ms));
    return answers[Math.min(calls.length - 1, answers.length - 1)];
  };
  return { fn, calls };
}

test("no entry for the resource: no earlier run left one, one export for the whole process", async () => {
  const e = exporter([checkpoint(["other"])]);
  const s = new StackState("org/p/dev", e.fn, true);
  await expect(s.interrupted("A", Date.now())).resolves.toBe(false);
  await expect(s.interrupted("B", Date.now())).resolves.toBe(false);
  expect(e.calls).toHaveLength(1);
});

test("two entries: an earlier run left one", async () => {
  const s = new StackState("org/p/dev", exporter([checkpoint(["A", "A"])]).fn, true);
  await expect(s.interrupted("A", Date.now())).resolves.toBe(true);
});

test("one entry seen by an export started before the create arrived: an export started after it decides, shared by a burst", async () => {
  // The first export sees A's own pending create (written just before A reached the provider), the
  // second sees A's own plus the interrupted run's; B's own only.
  const e = exporter([checkpoint(["A", "B"]), checkpoint(["A", "A", "B"])]);
  const s = new StackState("org/p/dev", e.fn, true);
  const first = s.snapshot();
  await new Promise((r) => setTimeout(r, 5));
  const arrived = Date.now();
  const [a, b] = await Promise.all([s.interrupted("A", arrived), s.interrupted("B", arrived)]);
  await first;
  expect([a, b]).toEqual([true, false]);
  expect(e.calls).toHaveLength(2);
  expect(e.calls[1]).toBeGreaterThanOrEqual(arrived);
});

test("one entry seen by an export started after the create arrived: it is this run's own", async () => {
  const e = exporter([checkpoint(["A"])]);
  const s = new StackState("org/p/dev", e.fn, true);
  const arrived = Date.now() - 1;
  await expect(s.interrupted("A", arrived)).resolves.toBe(false);
  expect(e.calls).toHaveLength(1);
});

test("with PULUMI_SKIP_CHECKPOINTS the engine writes nothing mid-run: every entry is an earlier run's", async () => {
  const s = new StackState("org/p/dev", exporter([checkpoint(["A"])]).fn, false);
  await expect(s.interrupted("A", Date.now() - 1)).resolves.toBe(true);
});

test("holders come from the state's resources; resources being deleted hold nothing", async () => {
  const svc = "pulumi-nodejs:dynamic/pagerduty:Service";
  const s = new StackState(
    "org/p/dev",
    exporter([
      checkpoint(
        [],
        [
          { urn: "urn:a", type: svc, id: "P1" },
          { urn: "urn:b", type: svc, id: "P2", delete: true },
          { urn: "urn:c", type: "other", id: "P3" },
        ],
      ),
    ]).fn,
    true,
  );
  await expect(s.holder("Service", "P1")).resolves.toBe("urn:a");
  await expect(s.holder("Service", "P2")).resolves.toBeUndefined();
  await expect(s.holder("Service", "P3")).resolves.toBeUndefined();
});

test("an export that cannot run rejects naming the stack and the command", async () => {
  const path = process.env.PATH;
  process.env.PATH = "/nonexistent";
  try {
    await expect(new StackState("org/p/dev").interrupted("A", Date.now())).rejects.toThrow(
      /reading the state of stack "org\/p\/dev" with `pulumi stack export` failed: .*ENOENT/,
    );
  } finally {
    process.env.PATH = path;
  }
});
