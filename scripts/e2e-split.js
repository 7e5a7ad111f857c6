// Splits end-to-end test files as the suite runs them: those whose first lines say
// "// e2e: runs alone" (they time kills against requests, or count requests per burst, so a
// neighbour's load must not move what they measure) run one at a time after the others.
// Usage: node scripts/e2e-split.js [NAME...]  (names as in tests/e2e/NAME.test.ts; none: every file)
// Prints one line, "TOGETHER;ALONE;WORKERS": two `|`-separated lists of names (for a jest path
// pattern) and how many of the others run at once.
const fs = require("node:fs");
const path = require("node:path");

const dir = path.join(__dirname, "..", "tests", "e2e");
const names =
  process.argv.length > 2 ? process.argv.slice(2) : fs.readdirSync(dir).flatMap((f) => (f.endsWith(".test.ts") ? [f.slice(0, -".test.ts".length)] : []));
const isAlone = (name) => /^\/\/ e2e: runs alone/m.test(fs.readFileSync(path.join(dir, `${name}.test.ts`), "utf8"));
// Three at a time on 2 cores: each file waits on Pulumi's processes part of the time, so two kept
// the cores about 75 % busy and three 99 % (the 26 files: 1,050 s two at a time, 895 s three).
const WORKERS = 3;
console.log([names.filter((n) => !isAlone(n)).join("|"), names.filter(isAlone).join("|"), WORKERS].join(";"));
