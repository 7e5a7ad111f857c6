// The README is the user's entry point and docs/ holds the rest. Every relative link of README.md and
// docs/*.md reaches a file that exists, every #anchor a heading of its page (GitHub's slugs), the
// README's sections come in the order a user reads them, it links the docs index and the reference,
// and every page of docs/ is linked from the docs index, so a page that goes missing (or is never
// linked) fails here.
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.join(__dirname, "../..");
const DOC_PAGES = fs
  .readdirSync(path.join(ROOT, "docs"))
  .filter((f) => f.endsWith(".md"))
  .sort()
  .map((f) => `docs/${f}`);
/** The pages whose links are checked, relative to the repository root. */
const PAGES = ["README.md", ...DOC_PAGES];

const read = (page: string): string => fs.readFileSync(path.join(ROOT, page), "utf8");

/** The page's lines with fenced code blocks blanked out (a `# comment` in a shell block is no heading). */
function prose(md: string): string[] {
  let fenced = false;
  return md.split("\n").map((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return "";
    }
    return fenced ? "" : line;
  });
}

interface Heading {
  level: number;
  text: string;
}

function headings(md: string): Heading[] {
  return prose(md).flatMap((line) => {
    const m = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    return m ? [{ level: m[1].length, text: m[2] }] : [];
  });
}

/** GitHub's anchor for a heading (github-slugger): the rendered text, lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/[`*]/g, "");
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor of a page, repeated headings numbered as GitHub does (`x`, `x-1`, `x-2`). */
function anchors(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const h of headings(md)) {
    const base = slug(h.text);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** The targets of the page's inline links, outside code (code spans are dropped paragraph by paragraph). */
function links(md: string): string[] {
  return prose(md)
    .join("\n")
    .split(/\n\s*\n/)
    .flatMap((para) => [...para.replace(/`[^`]*`/g, "").matchAll(/\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]));
}

/** What is wrong with one link of `page`, or undefined. */
function problem(page: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto:: not ours to check
  const [file, anchor] = target.split("#", 2) as [string, string | undefined];
  const abs = file ? path.resolve(ROOT, path.dirname(page), decodeURIComponent(file)) : path.join(ROOT, page);
  const rel = path.relative(ROOT, abs);
  if (rel.startsWith("..")) return `${page}: ${target} leaves the repository`;
  if (!fs.existsSync(abs)) return `${page}: ${target} names ${rel}, which does not exist`;
  if (anchor === undefined) return undefined;
  if (!abs.endsWith(".md")) return `${page}: ${target} has an anchor into ${rel}, which is no markdown page`;
  if (!anchors(fs.readFileSync(abs, "utf8")).has(decodeURIComponent(anchor))) return `${page}: ${target} names no heading of ${rel}`;
  return undefined;
}

/** The links of the part of `md` under the level-2 heading `title`, up to the next one. */
function linksUnder(md: string, title: string): string[] {
  const lines = prose(md);
  const start = lines.indexOf(`## ${title}`);
  if (start < 0) throw new Error(`no "## ${title}"`);
  const end = lines.findIndex((l, i) => i > start && l.startsWith("## "));
  return links(lines.slice(start + 1, end < 0 ? undefined : end).join("\n"));
}

test("the slugs follow GitHub's rules", () => {
  expect(slug("Getting a user token: `pagerduty-login`")).toBe("getting-a-user-token-pagerduty-login");
  expect(slug("The id_token")).toBe("the-id_token");
  expect(slug("Named accounts: `--account NAME`")).toBe("named-accounts---account-name");
  expect([...anchors("# A\n## A\n```sh\n# not a heading\n```\n## A")]).toEqual(["a", "a-1", "a-2"]);
});

test.each(PAGES)("every relative link of %s reaches a file, and every anchor a heading", (page) => {
  const found = links(read(page));
  if (page === "README.md") expect(found.length).toBeGreaterThan(8); // the links are found at all
  expect(found.map((t) => problem(page, t)).filter(Boolean)).toEqual([]);
});

test("a link to a page or heading that is not there is caught", () => {
  expect(problem("README.md", "docs/no-such-page.md")).toMatch(/does not exist/);
  expect(problem("README.md", "docs/contributing.md#no-such-heading")).toMatch(/names no heading/);
  expect(problem("docs/README.md", "../README.md#quick-start")).toBeUndefined();
});

test("the README's sections come in the order a user reads them", () => {
  const h2 = headings(read("README.md"))
    .filter((h) => h.level === 2)
    .map((h) => h.text);
  expect(h2).toEqual([
    "What it is",
    "Try it from a fresh checkout",
    "Install",
    "Requirements and what is tested",
    "Which door",
    "Quick start",
    "Configuration in brief",
    "Documentation",
  ]);
});

test("the README's first code block is the two commands of a fresh checkout", () => {
  const first = /^```[^\n]*\n([\s\S]*?)^```$/m.exec(read("README.md"));
  expect(first?.[1]).toBe("npm run demo\nnpm test\n");
});

test("the README links the docs index and the reference; every page of docs/ is linked from the index", () => {
  const documentation = linksUnder(read("README.md"), "Documentation").map((t) => t.split("#")[0]);
  expect(documentation).toEqual(expect.arrayContaining(["docs/README.md", "docs/reference.md"]));
  const index = links(read("docs/README.md")).map((t) => `docs/${t.split("#")[0]}`);
  expect(DOC_PAGES.filter((p) => p !== "docs/README.md" && !index.includes(p))).toEqual([]);
});

test.each(DOC_PAGES)("%s opens with a title and a sentence of what the reader comes for", (page) => {
  const lines = read(page).split("\n");
  expect(lines[0]).toMatch(/^# \S/);
  const first = lines.slice(1).find((l) => l.trim() !== "");
  expect(first).toMatch(/^[A-Z`[]/);
  expect(first).not.toMatch(/^(#|-|\||```|>|\d+\.)/);
});

test("the npm package carries docs/, which the README links to", () => {
  const files: string[] = JSON.parse(read("package.json")).files;
  expect(files).toContain("docs/");
});
