// Reads the output of `pulumi refresh --preview-only --diff --color never` and prints one line per
// resource that changed out of band: "<name> (<type>): field, field" (top-level fields marked
// changed, added or removed; "deleted" when the object is gone).

const fs = require("node:fs");

const lines = fs.readFileSync(process.argv[2], "utf8").split("\n");
const found = [];
let current;
for (const line of lines) {
  // A resource step, e.g. "    ~ pulumi-nodejs:dynamic/pagerduty:Service: (update)".
  const step = /^ {4}([~+-]) (\S+): \((\w[\w-]*)\)$/.exec(line);
  if (step) {
    current = { type: step[2].replace(/^pulumi-nodejs:dynamic\//, ""), op: step[3], name: "", fields: [] };
    found.push(current);
    continue;
  }
  if (!current) continue;
  const urn = /^ {8}\[urn=.*::([^:\]]+)\]$/.exec(line);
  if (urn) current.name = urn[1];
  // A changed top-level field, e.g. "      ~ description   : "a" => "b"".
  const field = /^ {6}[~+-] (\w+)\s*:/.exec(line);
  if (field) current.fields.push(field[1]);
}
for (const r of found) {
  const what = r.op === "delete" ? "deleted" : r.fields.sort().join(", ") || r.op;
  console.log(`${r.name} (${r.type}): ${what}`);
}
