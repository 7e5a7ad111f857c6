// Writes plugin/schema.json, the package schema the plugin serves (plugin/schema.ts builds it from
// the registry's definitions and the lookup result schemas). The lookups' descriptions are the TSDoc
// of the get* functions in sdk/lookups.ts, read here with the TypeScript compiler, so each is
// written once; each function's query must be the one plugin/lookup-functions.ts serves.
// tests/unit/scripts/generate-schema.test.ts fails when the file is stale.
//
// Usage: npm run generate           (with the SDK) writes it
//        node .../generate-schema.js --check  exits 1 when it is stale
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { DEFINITIONS } from "../provider/registry";
import { LOOKUP_RESULTS } from "../provider/resources/lookup-results";
import { LOOKUP_FUNCTIONS } from "../plugin/lookup-functions";
import { buildSchema } from "../plugin/schema";
import { ROOT } from "./repo-root";

export const SCHEMA_FILE = "plugin/schema.json";

/** Each exported get* function of sdk/lookups.ts: its TSDoc and the query it passes to `lookup(...)`. */
export function lookupDocs(source = fs.readFileSync(path.join(ROOT, "sdk/lookups.ts"), "utf8")): Map<string, { doc: string; query?: string }> {
  const file = ts.createSourceFile("lookups.ts", source, ts.ScriptTarget.ES2022, true);
  const out = new Map<string, { doc: string; query?: string }>();
  for (const node of file.statements) {
    if (!ts.isFunctionDeclaration(node) || !node.name || !node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    const name = node.name.text;
    if (!/^get[A-Z]/.test(name)) continue;
    const doc = ts
      .getJSDocCommentsAndTags(node)
      .filter(ts.isJSDoc)
      .map((d) => ts.getTextOfJSDocComment(d.comment) ?? "")
      .join("\n")
      .trim();
    let query: string | undefined;
    const visit = (n: ts.Node): void => {
      if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === "lookup" && ts.isStringLiteral(n.arguments[1]))
        query = n.arguments[1].text;
      n.forEachChild(visit);
    };
    visit(node);
    out.set(name, { doc, query });
  }
  return out;
}

/** The schema file's text. */
export function generateSchema(): string {
  const docs = lookupDocs();
  const served = new Map(LOOKUP_FUNCTIONS.map((f) => [f.name, f.query as string]));
  const sdk = new Map([...docs].map(([name, d]) => [name, d.query]));
  if (JSON.stringify([...served].sort()) !== JSON.stringify([...sdk].sort()))
    throw new Error(`plugin/lookup-functions.ts must list sdk/lookups.ts's functions and queries: ${JSON.stringify([...sdk])}`);
  const version: string = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).version;
  const functionDocs = Object.fromEntries([...docs].map(([name, d]) => [name, d.doc]));
  return `${JSON.stringify(buildSchema(DEFINITIONS, { version, functionDocs, lookupResults: LOOKUP_RESULTS }), null, 2)}\n`;
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
