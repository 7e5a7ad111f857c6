// The support matrix is one file (scripts/support-matrix.json); what users read and copy says the
// same: the README's table, package.json's engines and peer range, the examples' SDK range, and the
// GitHub workflows we ship and document (action majors, Node.js line, Pulumi version).
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.join(__dirname, "../..");
const read = (f: string) => fs.readFileSync(path.join(ROOT, f), "utf8");
const json = (f: string) => JSON.parse(read(f));

interface Matrix {
  node: { development: string; supported: string[] };
  pulumi: { newest: string; oldest: string };
  matrix: { name: string; node: string; pulumi: string }[];
  programs: string[];
  actions: Record<string, string>;
}
const MATRIX: Matrix = json("scripts/support-matrix.json");
const major = (v: string) => v.split(".")[0];

/** The rows of the README's table under its marker, as cells. */
function readmeRows(readme: string): string[][] {
  const at = readme.indexOf("<!-- support-matrix:");
  if (at < 0) throw new Error("README.md: no support-matrix table");
  const lines = readme.slice(at).split("\n").slice(1);
  const table = lines.slice(
    0,
    lines.findIndex((l) => !l.startsWith("|")),
  );
  return table.slice(2).map((l) =>
    l
      .split("|")
      .slice(1, -1)
      .map((c) => c.trim()),
  );
}

/** Each `uses:`, `node-version:` and `pulumi-version:` of a workflow text, with its line. */
function workflowPins(text: string): { what: string; value: string }[] {
  const out: { what: string; value: string }[] = [];
  for (const m of text.matchAll(/uses:\s*([\w./-]+)@([\w.-]+)/g)) out.push({ what: m[1], value: m[2] });
  for (const m of text.matchAll(/(node-version|pulumi-version):\s*"?([\w.]+)"?/g)) out.push({ what: m[1], value: m[2] });
  return out;
}

/** What a pin should be, or undefined when the matrix does not say (another action). */
function expected(what: string): string | undefined {
  if (what === "node-version") return major(MATRIX.node.development);
  if (what === "pulumi-version") return MATRIX.pulumi.newest;
  return MATRIX.actions[what];
}

/** The workflows we ship, and every YAML block of the docs (the workflows they show). */
function workflowTexts(): { file: string; text: string }[] {
  const dir = "examples/gitops/workflows";
  const shipped = fs.readdirSync(path.join(ROOT, dir)).map((f) => ({ file: `${dir}/${f}`, text: read(`${dir}/${f}`) }));
  const docs = ["README.md", "examples/gitops/README.md", ...fs.readdirSync(path.join(ROOT, "docs")).map((f) => `docs/${f}`)].flatMap((file) =>
    [...read(file).matchAll(/```ya?ml\n([\s\S]*?)```/g)].map((m) => ({ file, text: m[1] })),
  );
  return [...shipped, ...docs];
}

test("the README's table is the matrix npm test runs", () => {
  const rows = readmeRows(read("README.md"));
  expect(rows).toEqual([
    ["development", MATRIX.node.development, MATRIX.pulumi.newest, "every suite"],
    ...MATRIX.matrix.map((m) => [m.name, m.node, m.pulumi, `tests/e2e: ${MATRIX.programs.join(", ")}`]),
  ]);
  for (const p of MATRIX.programs) expect(fs.existsSync(path.join(ROOT, `tests/e2e/${p}.test.ts`))).toBe(true);
});

test("the matrix covers each supported Node.js line and both ends of the Pulumi range", () => {
  const lines = new Set([major(MATRIX.node.development), ...MATRIX.matrix.map((m) => major(m.node))]);
  expect([...lines].sort()).toEqual([...MATRIX.node.supported].sort());
  const pulumis = new Set([MATRIX.pulumi.newest, ...MATRIX.matrix.map((m) => m.pulumi)]);
  expect(pulumis).toEqual(new Set([MATRIX.pulumi.newest, MATRIX.pulumi.oldest]));
});

test("package.json says what the matrix supports: engines, the peer range's floor, the SDK developed against", () => {
  for (const file of ["package.json", "emulator/package.json"]) {
    const floor = /^>=(\d+)\./.exec(json(file).engines.node);
    expect({ file, floor: floor?.[1] }).toEqual({ file, floor: [...MATRIX.node.supported].sort()[0] });
  }
  const pkg = json("package.json");
  expect(pkg.peerDependencies["@pulumi/pulumi"]).toBe(`^${MATRIX.pulumi.oldest}`);
  expect(pkg.devDependencies["@pulumi/pulumi"]).toBe(MATRIX.pulumi.newest);
  for (const example of fs.readdirSync(path.join(ROOT, "examples"))) {
    const file = `examples/${example}/package.json`;
    if (!fs.existsSync(path.join(ROOT, file))) continue;
    expect({ file, sdk: json(file).dependencies["@pulumi/pulumi"] }).toEqual({ file, sdk: `^${MATRIX.pulumi.oldest}` });
  }
});

test("every workflow we ship or show pins the current majors, the development Node.js line and the Pulumi the tests use", () => {
  const stale = workflowTexts().flatMap(({ file, text }) =>
    workflowPins(text)
      .filter((p) => expected(p.what) !== undefined && p.value !== expected(p.what))
      .map((p) => `${file}: ${p.what} ${p.value} (the matrix says ${expected(p.what)})`),
  );
  expect(stale).toEqual([]);
  // The workflows do pin them: a check that found no pins would pass anything.
  const pinned = new Set(workflowTexts().flatMap(({ text }) => workflowPins(text).map((p) => p.what)));
  for (const what of ["node-version", "pulumi-version", ...Object.keys(MATRIX.actions)]) expect(pinned).toContain(what);
});

test("a stale pin is caught", () => {
  const pins = workflowPins("- uses: actions/setup-node@v4\n  with:\n    node-version: 20\n- uses: pulumi/actions@v7\n");
  const stale = pins.filter((p) => expected(p.what) !== p.value).map((p) => `${p.what}@${p.value}`);
  expect(stale).toEqual(["actions/setup-node@v4", "node-version@20"]);
});
