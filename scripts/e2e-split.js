// Splits end-to-end test files as the suite runs them: those whose first lines say
// "// e2e: runs apart" (they time kills against requests, or count requests per burst, so a busy
// machine must not move what they measure) run after the others, fewer at a time.
// Usage: node scripts/e2e-split.js [NAME...]  (names as in tests/e2e/NAME.test.ts; none: every file)
// Prints one line, "TOGETHER;APART;WORKERS;APART_WORKERS": two `|`-separated lists of names (for a
// jest path pattern) and how many of each run at once.
const fs = require("node:fs");
const path = require("node:path");

const dir = path.join(__dirname, "..", "tests", "e2e");
const names =
  process.argv.length > 2 ? process.argv.slice(2) : fs.readdirSync(dir).flatMap((f) => (f.endsWith(".test.ts") ? [f.slice(0, -".test.ts".length)] : []));
const isApart = (name) => /^\/\/ e2e: runs apart/m.test(fs.readFileSync(path.join(dir, `${name}.test.ts`), "utf8"));
// Three at a time on 2 cores: each file waits on Pulumi's processes part of the time, so two kept
// the cores about 75 % busy and three 99 % (the 26 files: 1,050 s two at a time, 895 s three).
const WORKERS = 3;
// The files that run apart kept the cores about 55 % busy one at a time: two at a time take 310 to
// 326 s instead of 466 (three runs, every test passed each time), the machine no busier than the
// other files keep it.
const APART_WORKERS = 2;
console.log([names.filter((n) => !isApart(n)).join("|"), names.filter(isApart).join("|"), WORKERS, APART_WORKERS].join(";"));
