// The small-stack benchmark's tables: the package door against the native do-nothing plugin
// (issue 55) beside the Node.js one, each ratio a ratio of medians with its rounds' own.
import { median } from "../../../../bench/compare-math";
import { report, type SmallResults } from "../../../../bench/small/report";
import { breakdown } from "../../../../bench/small/timeline";

type Run = SmallResults["runs"][number];
const none = { rest: 0 } as Run["requests"];
const run = (door: Run["door"], who: Run["who"], round: number, seconds: number): Run => ({
  round,
  size: 5,
  door,
  phase: "up",
  who,
  seconds,
  breakdown: breakdown([]),
  processes: [],
  requests: none,
});

const results = (runs: Run[]): SmallResults => ({
  env: { date: "d", pulumi: "p", node: "n", cpus: "c", loadBefore: "1", load: "1" },
  options: { sizes: [5], rounds: 3, doors: [...new Set(runs.map((r) => r.door))] },
  runs,
  profiles: [],
});

test("the package door gets the native plugin's column: ours and the floor against it, and the target at or below it", () => {
  const text = report(
    results([
      ...[1.0, 1.2, 1.1].map((s, i) => run("package", "ours", i + 1, s)),
      ...[1.0, 1.0, 1.0].map((s, i) => run("package", "floor", i + 1, s)),
      ...[0.5, 0.6, 0.4].map((s, i) => run("package", "native", i + 1, s)),
    ]),
    median,
  );
  const row = text.split("\n").find((l) => l.startsWith("| 5 | up |"));
  // ours 1.10 s / native 0.50 s; the rounds' own: 2.00, 2.00, 2.75. The floor: 2.00 (1.67–2.50).
  expect(row).toBe("| 5 | up | 1.10 s | 1.00 s | 1.10× (1.00–1.20) | ≤ 1.1× PASS | 0.50 s | 2.20× (2.00–2.75) | 2.00× (1.67–2.50) |");
  expect(text).toContain("at or below the native do-nothing plugin (issue 55): the worst is 2.20× MISS");
});

test("a door without a native run keeps its two columns", () => {
  const text = report(results([run("ts", "ours", 1, 1.0), run("ts", "floor", 1, 1.0)]), median);
  expect(text.split("\n").find((l) => l.startsWith("| 5 | up |"))).toBe("| 5 | up | 1.00 s | 1.00 s | 1.00× (1.00–1.00) | ≤ 1.1× PASS |");
  expect(text).not.toContain("native");
});
