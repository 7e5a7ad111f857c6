// plugin/schema.json is generated from the registry's definitions and sdk/lookups.ts: stale when a
// definition or a lookup changed and `npm run generate` was not run.
import * as fs from "node:fs";
import * as path from "node:path";
import { generateSchema, lookupDocs, SCHEMA_FILE } from "../../../scripts/generate-schema";
import { ROOT } from "../../../scripts/repo-root";

test("plugin/schema.json is up to date (run `npm run generate`)", () => {
  expect(fs.readFileSync(path.join(ROOT, SCHEMA_FILE), "utf8")).toBe(generateSchema());
});

test("each lookup's description and query are read from sdk/lookups.ts", () => {
  const docs = lookupDocs();
  expect(docs.get("getService")).toEqual({ doc: expect.stringMatching(/^The service with exactly this name/), query: "service" });
  expect(docs.get("getServiceAuditRecords")?.query).toBe("serviceAuditRecords");
  const fake = lookupDocs(`/** Finds a thing. */\nexport function getThing(a: {}) { return lookup("getThing", "thing", {}); }\nfunction getHidden() {}\n`);
  expect([...fake]).toEqual([["getThing", { doc: "Finds a thing.", query: "thing" }]]);
});
