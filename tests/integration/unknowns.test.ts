// Unknowns are unknown, for every kind (issue 45): at a first preview, any input may be another
// resource's output, which the engine passes as one placeholder (`UNKNOWN`) whatever the value. For
// each kind's lifecycle row (tests/integration/lifecycle/rows: the registry test requires one per
// kind, so a new kind is covered here without a line of its own), every input and every part of one
// is replaced by the placeholder in turn, a list by a list of two placeholders, and all at once:
// - check passes (as a create and as an update): no rule compares, counts or matches a placeholder;
// - the diff against the deployed object is sound: it plans at least what some other value there
//   would plan (a change, a replacement);
// - nothing is sent that carries the placeholder, and nothing is written.
import { Agent, type Dispatcher } from "undici";
import { holdsUnknown, UNKNOWN } from "../../provider/kernel/check";
import type { ResourceKind } from "../../provider/registry";
import type { Deployed, Engine } from "./lifecycle/engine";
import { envOf } from "./lifecycle/env";
import type { Row } from "./lifecycle/row";
import { ROWS } from "./lifecycle/rows";
import { Stage } from "./lifecycle/stage";

type Path = ReadonlyArray<string | number>;

/** `v` with the value at `path` replaced by `value`. */
function setAt(v: unknown, path: Path, value: unknown): unknown {
  if (!path.length) return value;
  const [head, ...rest] = path;
  if (Array.isArray(v)) return v.map((x, i) => (i === head ? setAt(x, rest, value) : x));
  const o = v as Record<string, unknown>;
  return { ...o, [head]: setAt(o[head], rest, value) };
}

/** Another value of the same shape: what the placeholder might turn out to be. */
function other(v: unknown): unknown {
  if (typeof v === "string") return `${v}-other`;
  if (typeof v === "number") return v + 1;
  if (typeof v === "boolean") return !v;
  if (Array.isArray(v)) return [...v.map(other), other(v[0] ?? "x")];
  if (v !== null && typeof v === "object") return { ...Object.fromEntries(Object.entries(v).map(([k, x]) => [k, other(x)])), other: "x" };
  return "other";
}

interface Variant {
  label: string;
  /** The inputs with placeholders. */
  unknown: Record<string, unknown>;
  /** The same inputs with other values where the placeholders are. */
  known: Record<string, unknown>;
}

/** Every input and every part of one as the placeholder, each list also as two placeholders, and everything at once. */
function variants(declared: Record<string, unknown>): Variant[] {
  const out: Variant[] = [];
  const walk = (v: unknown, path: Path) => {
    if (path.length) {
      out.push({
        label: pathText(path),
        unknown: setAt(declared, path, UNKNOWN) as Record<string, unknown>,
        known: setAt(declared, path, other(v)) as Record<string, unknown>,
      });
      if (Array.isArray(v))
        out.push({
          label: `${pathText(path)} as [unknown, unknown]`,
          unknown: setAt(declared, path, [UNKNOWN, UNKNOWN]) as Record<string, unknown>,
          known: setAt(declared, path, [other(v[0] ?? "x"), other(other(v[0] ?? "x"))]) as Record<string, unknown>,
        });
    }
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
    else if (v !== null && typeof v === "object") for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
  };
  walk(declared, []);
  out.push({
    label: "every input",
    unknown: Object.fromEntries(Object.keys(declared).map((k) => [k, UNKNOWN])),
    known: Object.fromEntries(Object.entries(declared).map(([k, v]) => [k, other(v)])),
  });
  return out;
}

const pathText = (path: Path) => path.reduce<string>((acc, p) => (typeof p === "number" ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), "");

interface Sent {
  method: string;
  url: string;
  body: string;
}

/** Every request of the deployments that use it, as sent. */
function recordingAgent(sent: Sent[]): Dispatcher {
  return new Agent().compose((dispatch) => (opts, handler) => {
    sent.push({ method: opts.method, url: `${String(opts.origin ?? "")}${opts.path}`, body: typeof opts.body === "string" ? opts.body : "" });
    return dispatch(opts, handler);
  });
}

const rows = Object.entries(ROWS) as Array<[ResourceKind, Row]>;
const sent: Sent[] = [];
let stage: Stage;
let preview: Engine;
const deployed = new Map<ResourceKind, { declared: Record<string, unknown>; r: Deployed }>();

beforeAll(async () => {
  stage = await Stage.start({ windowSeconds: 0 });
  // The world each row's create needs, then the object itself: what a later preview diffs against.
  await Promise.all(
    rows.map(async ([kind, row]) => {
      const declared = (await row.create(envOf(stage, "unknowns"))) as Record<string, unknown>;
      deployed.set(kind, { declared, r: await stage.engine.create(kind, `${kind}-unknowns`, declared) });
    }),
  );
  // The preview runs in a process of its own, whose every request is recorded.
  preview = stage.laterProcess({ dispatcher: recordingAgent(sent) });
}, 120_000);

afterAll(() => stage?.close());

describe.each(rows)("%s", (kind, row) => {
  test("check passes and the diff plans at least what a known value would, with any input not known yet; nothing carries the placeholder, nothing is written", async () => {
    const { declared, r } = deployed.get(kind)!;
    const ignored = new Set(row.definition.diffIgnore ?? []);
    const problems: string[] = [];
    sent.length = 0;
    for (const v of variants(declared)) {
      try {
        // As a create (no old inputs) and as an update of the deployed object.
        await preview.check(kind, r.name, {}, v.unknown);
        const checked = await preview.check(kind, r.name, r.inputs, v.unknown);
        const unknownDiff = await preview.provider(kind).diff(r.id, r.outs, checked);
        const knownDiff = await preview.provider(kind).diff(r.id, r.outs, { ...v.known, __provider: checked.__provider });
        const unknownKeys = Object.keys(v.unknown).filter((k) => holdsUnknown(v.unknown[k]) && !ignored.has(k));
        if (knownDiff.changes && !unknownDiff.changes)
          problems.push(`${v.label}: the diff plans no change (another value would change ${unknownKeys.join(", ")})`);
        const missing = (knownDiff.replaces ?? []).filter((k) => !(unknownDiff.replaces ?? []).includes(k));
        if (missing.length) problems.push(`${v.label}: the diff does not plan to replace on ${missing.join(", ")} (another value would)`);
      } catch (e) {
        problems.push(`${v.label}: ${(e as Error).message}`);
      }
    }
    expect(problems).toEqual([]);
    const carried = sent.filter((s) => s.url.includes(UNKNOWN) || s.body.includes(UNKNOWN)).map((s) => `${s.method} ${s.url}`);
    expect(carried).toEqual([]);
    const writes = sent.filter((s) => s.method !== "GET" && !s.url.endsWith("/oauth/token")).map((s) => `${s.method} ${s.url}`);
    expect(writes).toEqual([]);
  });
});

test("the variants replace every part of the inputs, lists also by two placeholders", () => {
  const labels = variants({ name: "a", services: ["S1"], config: { fields: ["x"] } }).map((v) => v.label);
  expect(labels).toEqual([
    "name",
    "services",
    "services as [unknown, unknown]",
    "services[0]",
    "config",
    "config.fields",
    "config.fields as [unknown, unknown]",
    "config.fields[0]",
    "every input",
  ]);
});
