// What the docs and the code's comments name must be there: every repository path they mention
// exists, and every count they state of something the repository holds (resource kinds, end-to-end
// files, jest projects, the emulator's kinds) is the count today. A claim goes stale silently otherwise. Another
// project's path is written with its package (`@pulumi/pulumi/provider/server.js`).
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { KIND_MODULES } from "../../emulator/src/kinds";
import { RESOURCES } from "../../provider/registry";
import { DEFAULT_CONSISTENCY_WINDOW_S } from "../../provider/settings";

const ROOT = path.join(__dirname, "../..");
const read = (f: string) => fs.readFileSync(path.join(ROOT, f), "utf8");

/** The files of `dir` (recursively) whose names match `ext`. */
function files(dir: string, ext: RegExp): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(path.join(ROOT, d), { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (!["node_modules", "dist", ".work"].includes(e.name)) walk(p);
      } else if (ext.test(e.name)) out.push(p);
    }
  };
  walk(dir);
  return out;
}

const DOCS = ["README.md", "emulator/README.md", "examples/gitops/README.md", ...files("docs", /\.md$/)];
/** The sources, whose comments are read (a path in code is the compiler's to check; tests name made-up paths on purpose). */
const SOURCES = ["provider", "plugin", "sdk", "scripts", "bench", "emulator/src"].flatMap((d) => files(d, /\.ts$/));

/** The comment lines of a source. */
const comments = (text: string) =>
  text
    .split("\n")
    .filter((l) => /^\s*(\/\/|\*|\/\*\*?)/.test(l))
    .join("\n");
const textOf = (file: string) => (file.endsWith(".ts") ? comments(read(file)) : read(file));

const TOP = ["provider", "plugin", "sdk", "emulator", "tests", "scripts", "bench", "examples", "docs", ".ci"];

/** Repository paths a text names: `tests/e2e/quickstart.test.ts`, `examples/full`, ... (not patterns such as `sdk/<kind>.ts`). */
function pathsIn(text: string): string[] {
  const found = new Set<string>();
  const re = new RegExp(`(?<![\\w./@-])((?:${TOP.map((t) => t.replace(".", "\\.")).join("|")})/[\\w./-]*[\\w/])`, "g");
  for (const m of text.matchAll(re)) {
    const p = m[1].replace(/[./]+$/, "");
    const after = text[m.index! + m[0].length];
    if (after === "<" || after === "*" || after === "{" || after === "$") continue; // a pattern, not a path
    found.add(p);
  }
  return [...found];
}

/** Where a named path may live: from the root, or (emulator sources) from the emulator package. */
const exists = (p: string) => fs.existsSync(path.join(ROOT, p)) || fs.existsSync(path.join(ROOT, "emulator", p));

test("the path finder finds paths and leaves patterns alone", () => {
  expect(pathsIn("see `tests/e2e/quickstart.test.ts`, examples/full and sdk/<kind>.ts.")).toEqual(["tests/e2e/quickstart.test.ts", "examples/full"]);
});

test("every path the docs and the sources' comments name exists", () => {
  const missing = [...DOCS, ...SOURCES].flatMap((file) => pathsIn(textOf(file)).flatMap((p) => (exists(p) ? [] : [`${file}: ${p}`])));
  expect(missing).toEqual([]);
});

const WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen"];
const numberOf = (w: string) => (/^\d+$/.test(w) ? Number(w) : WORDS.indexOf(w.toLowerCase()));

/** Counts the docs state, each against what the repository holds now. */
const COUNTS: ReadonlyArray<{ noun: RegExp; actual: () => number }> = [
  { noun: /resource kinds|kinds of resource/, actual: () => Object.keys(RESOURCES).length },
  { noun: /end-to-end files|e2e files/, actual: () => fs.readdirSync(path.join(ROOT, "tests/e2e")).filter((f) => f.endsWith(".test.ts")).length },
  { noun: /jest projects|projects so each suite/, actual: () => (read("jest.config.js").match(/displayName:/g) ?? []).length },
  { noun: /kinds of object the emulator serves/, actual: () => KIND_MODULES.length },
];

test("every count the docs and the sources' comments state of the repository is today's", () => {
  const wrong: string[] = [];
  for (const file of [...DOCS, ...SOURCES, "jest.config.js"])
    for (const { noun, actual } of COUNTS) {
      const re = new RegExp(`\\b(\\d+|${WORDS.join("|")}) (?:${noun.source})`, "gi");
      for (const m of textOf(file).matchAll(re)) if (numberOf(m[1]) !== actual()) wrong.push(`${file}: "${m[0]}" (there are ${actual()})`);
    }
  expect(wrong).toEqual([]);
});

test("a stale count is caught", () => {
  const re = new RegExp(`\\b(\\d+|${WORDS.join("|")}) (?:${COUNTS[0].noun.source})`, "gi");
  const [m] = "It manages three resource kinds.".matchAll(re);
  expect(numberOf(m[1])).toBe(3);
  expect(numberOf(m[1])).not.toBe(COUNTS[0].actual());
});

// Every documented `npx` of this project's commands runs what is installed, never fetches. Without
// `--no-install`, npx asks the public registry for a package named like the command when the
// project does not have it (a copied example, a typo in the folder), and in CI it installs what it
// finds: whatever is published under that name would run with the pipeline's credentials.
/** Our commands: the bins of the package and of the emulator, and the packages' own names. */
const OURS = new Set(
  ["package.json", "emulator/package.json"].flatMap((f) => {
    const pkg = JSON.parse(read(f)) as { name: string; bin: Record<string, string> };
    return [pkg.name, ...Object.keys(pkg.bin)];
  }),
);

/** The text files under `dir` (recursively), generated and installed folders aside. */
function textFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(path.join(ROOT, d), { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (!["node_modules", "dist", ".work", "bin", "obj"].includes(e.name)) walk(p);
      } else if (/\.(md|ts|js|ya?ml|sh|json|py|go|cs)$/.test(e.name)) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** What users read and copy: the pages, the examples, and the messages and settings the code prints. */
const READ_BY_USERS = [
  "README.md",
  "emulator/README.md",
  "plugin/schema.json",
  ...["docs", "examples", "provider", "plugin", "sdk", "emulator/src"].flatMap(textFiles),
];

/** Each `npx` in `text` that would run one of our commands and may fetch it: its line and words. */
function fetchingInvocations(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/\bnpx((?:\s+[^\s`'"|;&)]+)+)/g)) {
    const words = m[1]!.trim().split(/\s+/);
    let safe = false;
    let i = 0;
    // The flags before the command: --no-install (or --no) refuses to fetch; -p/--package names what runs, installed or not.
    for (; i < words.length && words[i]!.startsWith("-"); i++) {
      if (words[i] === "--no-install" || words[i] === "--no") safe = true;
      if (words[i] === "-p" || words[i] === "--package") {
        safe = OURS.has(words[i + 1] ?? "");
        i++;
      }
    }
    if (!safe && OURS.has(words[i] ?? "")) found.push(`npx ${words.slice(0, i + 1).join(" ")}`);
  }
  return found;
}

test("the check finds an npx of our commands that may fetch, and passes one that cannot", () => {
  expect(fetchingInvocations("run `npx pagerduty-routing-test --cases c.yaml` then")).toEqual(["npx pagerduty-routing-test"]);
  expect(fetchingInvocations("npx --yes pagerduty-emulator --port 0 &")).toEqual(["npx --yes pagerduty-emulator"]);
  expect(fetchingInvocations("npx pulumi-pagerduty-dynamic")).toEqual(["npx pulumi-pagerduty-dynamic"]);
  expect(fetchingInvocations("npx --no-install pagerduty-login; npx -p pulumi-pagerduty-dynamic pagerduty-adopt; npx jest; npx tsc")).toEqual([]);
  expect(fetchingInvocations("npx -p some-other-package pagerduty-move")).toEqual(["npx -p some-other-package pagerduty-move"]);
});

test("no page, example, message or setting tells a user to run our commands through an npx that may fetch them", () => {
  const offenders = READ_BY_USERS.flatMap((f) => fetchingInvocations(read(f)).map((inv) => `${f}: ${inv}`));
  expect(offenders).toEqual([]);
});

test("every script of examples/gitops the docs name is committed executable (mode 100755), as `./routing-test.sh` needs", () => {
  const entries = execFileSync("git", ["ls-files", "--stage", "--", "examples/gitops/*.sh"], { cwd: ROOT, encoding: "utf8" }).trim().split("\n");
  expect(entries.length).toBeGreaterThanOrEqual(6);
  const modes = Object.fromEntries(entries.map((l) => [l.split("\t")[1], l.split(" ")[0]]));
  expect(Object.entries(modes).filter(([, mode]) => mode !== "100755")).toEqual([]);
});

test("docs/consistency.md states the consistency windows the code defaults to", () => {
  const { us, eu } = DEFAULT_CONSISTENCY_WINDOW_S;
  expect(read("docs/consistency.md")).toContain(`(${us} s for \`us\`, ${eu} s for \`eu\`;`);
});
