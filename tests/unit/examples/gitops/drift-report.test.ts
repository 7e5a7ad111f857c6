// examples/gitops/drift-report.js: the resources and fields a drift check names, read from the
// text of `pulumi refresh --preview-only --diff --color never` (shape captured from the 3.248.0 CLI).
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const REPORT = path.join(__dirname, "../../../../examples/gitops/drift-report.js");

const OUTPUT = `Previewing refresh (dev):
  pulumi:pulumi:Stack: (same)
    [urn=urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev]
    ~ pulumi-nodejs:dynamic/pagerduty:Service: (update)
        [id=P63DJAQ]
        [urn=urn:pulumi:dev::proj::pulumi-nodejs:dynamic/pagerduty:Service::search]
      ~ acknowledgementTimeout          : 1800 => 900
      ~ alertGroupingParameters         : {
          ~ type: <null> => "time"
        }
        name                            : "Search"
    ~ pulumi-nodejs:dynamic/pagerduty:Service: (update)
        [id=PVZQN6G]
        [urn=urn:pulumi:dev::proj::pulumi-nodejs:dynamic/pagerduty:Service::checkout]
      ~ description                     : "Takes orders and payments" => "edited by hand"
      ~ name                            : "Checkout API" => "Checkout 2"
      - supportHours                    : {
        }
    - pulumi-nodejs:dynamic/pagerduty:ServiceEventRule: (delete)
        [id=4f0c]
        [urn=urn:pulumi:dev::proj::pulumi-nodejs:dynamic/pagerduty:ServiceEventRule::rule]
Resources:
    ~ 2 to update
    - 1 to delete
    1 unchanged
`;

test("one line per changed resource with its changed top-level fields; a deleted object says so", () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ppd-report-")), "out.txt");
  fs.writeFileSync(file, OUTPUT);
  try {
    expect(execFileSync(process.execPath, [REPORT, file], { encoding: "utf8" }).trim().split("\n")).toEqual([
      "search (pagerduty:Service): acknowledgementTimeout, alertGroupingParameters",
      "checkout (pagerduty:Service): description, name, supportHours",
      "rule (pagerduty:ServiceEventRule): deleted",
    ]);
    fs.writeFileSync(file, "Previewing refresh (dev):\nResources:\n    3 unchanged\n");
    expect(execFileSync(process.execPath, [REPORT, file], { encoding: "utf8" })).toBe("");
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true });
  }
});
