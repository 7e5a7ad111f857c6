// Writes plugin/schema.json, the package schema the plugin serves (plugin/schema.ts builds it from
// the registry's resource and lookup definitions). tests/unit/scripts/generate-schema.test.ts fails
// when the file is stale.
//
// Usage: npm run generate           (with the SDK) writes it
//        node .../generate-schema.js --check  exits 1 when it is stale
import * as fs from "node:fs";
import * as path from "node:path";
import type { LookupDefinition, ResourceDefinition } from "../provider/kernel/define";
import { definitions as everyDefinition, lookupDefinitions as everyLookup } from "../provider/registry";
import { buildSchema } from "../plugin/schema";
import { ROOT } from "./repo-root";

export const SCHEMA_FILE = "plugin/schema.json";

/** The schema file's text (`definitions` and `lookups`: the registry's, or a test's). */
export function generateSchema(definitions: readonly ResourceDefinition[] = everyDefinition(), lookups: readonly LookupDefinition[] = everyLookup()): string {
  const version: string = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).version;
  return `${JSON.stringify(buildSchema(definitions, { version, lookups }), null, 2)}\n`;
}

if (require.main === module) {
  const text = generateSchema();
  const file = path.join(ROOT, SCHEMA_FILE);
  const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
  if (process.argv.includes("--check")) {
    if (current !== text) {
      console.error(`${SCHEMA_FILE} is stale (run npm run generate)`);
      process.exit(1);
    }
  } else if (current !== text) {
    fs.writeFileSync(file, text);
    console.log(`wrote ${SCHEMA_FILE}`);
  } else console.log(`${SCHEMA_FILE} is up to date`);
}
