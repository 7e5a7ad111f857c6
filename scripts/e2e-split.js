// Splits end-to-end test files as the suite runs them: those whose first lines say
// "// e2e: runs alone" (they time kills against requests, or count requests per burst, so a
// neighbour's load must not move what they measure) run one at a time after the others.
// Usage: node scripts/e2e-split.js [NAME...]  (names as in tests/e2e/NAME.test.ts; none: every file)
// Prints one line, "TOGETHER;ALONE", each a `|`-separated list of names (for a jest path pattern).
const fs = require("node:fs");
const path = require("node:path");

const dir = path.join(__dirname, "..", "tests", "e2e");
const names =
  process.argv.length > 2 ? process.argv.slice(2) : fs.readdirSync(dir).flatMap((f) => (f.endsWith(".test.ts") ? [f.slice(0, -".test.ts".length)] : []));
const isAlone = (name) => /^\/\/ e2e: runs alone/m.test(fs.readFileSync(path.join(dir, `${name}.test.ts`), "utf8"));
console.log([names.filter((n) => !isAlone(n)).join("|"), names.filter(isAlone).join("|")].join(";"));
