// Every documented `npx` of this project's commands runs what is installed, never fetches. Without
// `--no-install`, npx asks the public registry for a package named like the command when the
// project does not have it (a copied example, a typo in the folder), and in CI it installs what it
// finds: whatever is published under that name would run with the pipeline's credentials.
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.join(__dirname, "../..");
const read = (f: string) => fs.readFileSync(path.join(ROOT, f), "utf8");

/** Our commands: the bins of the package and of the emulator, and the packages' own names. */
const OURS = new Set(
  ["package.json", "emulator/package.json"].flatMap((f) => {
    const pkg = JSON.parse(read(f)) as { name: string; bin: Record<string, string> };
    return [pkg.name, ...Object.keys(pkg.bin)];
  }),
);

/** The text files under `dir` (recursively), generated and installed folders aside. */
function files(dir: string): string[] {
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
const READ = ["README.md", "emulator/README.md", "plugin/schema.json", ...["docs", "examples", "provider", "plugin", "sdk", "emulator/src"].flatMap(files)];

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
  const offenders = READ.flatMap((f) => fetchingInvocations(read(f)).map((inv) => `${f}: ${inv}`));
  expect(offenders).toEqual([]);
});
