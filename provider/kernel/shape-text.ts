// A declared shape (kernel/declared.ts) as one string, the form the state keeps. The engine turns
// every property value of every resource into JSON on each checkpoint save, before and after each
// step: a tree of `true`s costs it a value per declared key and an object per nested one, the
// string one value (issue 38: with the tree, the engine spent 0.5 s more CPU on a 150-resource destroy).
//
//   members  := member ("," member)*        the top level is an object's members
//   member   := key value?                  a key alone is a leaf
//   value    := "{" members? "}" | "[" elements? "]"
//   elements := element ("," element)*      element := "." (a leaf) | value
//   key      := [A-Za-z0-9_$]+ | a JSON string
//
// e.g. `actions{severity{value}},conditions{operator,subconditions[{operator,parameters{path}}]},position`.
import { PagerDutyError } from "../errors";

/** A value's shape: `true` for a leaf, the keys of an object, the elements of an array. */
export type Shape = true | Shape[] | { [key: string]: Shape };

type Members = { [key: string]: Shape };

const BARE = "[A-Za-z0-9_$]+";
const BARE_KEY = new RegExp(`^${BARE}$`);
/** A bare key where the parser stands (sticky: matched in place, not on a copy of the rest). */
const BARE_KEY_AT = new RegExp(BARE, "y");

const keyText = (k: string) => (BARE_KEY.test(k) ? k : JSON.stringify(k));

function valueText(s: Shape): string {
  if (s === true) return "";
  if (Array.isArray(s)) return `[${s.map((e) => (e === true ? "." : valueText(e))).join(",")}]`;
  return `{${membersText(s)}}`;
}

const membersText = (m: Members) =>
  Object.entries(m)
    .map(([k, v]) => keyText(k) + valueText(v))
    .join(",");

/** The shape of an object (the declared inputs) as text. */
export const shapeText = (shape: Members): string => membersText(shape);

/** A text that is not a shape's (a damaged state). */
export class ShapeTextError extends PagerDutyError {
  constructor(text: string, at: number) {
    super("ERR_STATE", `__declared is not a declared shape at offset ${at}: ${JSON.stringify(text.slice(Math.max(0, at - 20), at + 20))}`);
    this.name = "ShapeTextError";
  }
}

/** The object shape `text` describes; throws ShapeTextError when it describes none. */
export function parseShapeText(text: string): Members {
  let at = 0;
  const fail = (): never => {
    throw new ShapeTextError(text, at);
  };
  const eat = (c: string) => {
    if (text[at] !== c) return false;
    at++;
    return true;
  };

  const key = (): string => {
    if (text[at] !== '"') {
      BARE_KEY_AT.lastIndex = at;
      const m = BARE_KEY_AT.exec(text);
      if (!m) return fail();
      at += m[0].length;
      return m[0];
    }
    // A JSON string: up to the first quote no backslash escapes.
    let end = at + 1;
    while (end < text.length && text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
    if (end >= text.length) return fail();
    const k: unknown = JSON.parse(text.slice(at, end + 1));
    at = end + 1;
    return typeof k === "string" ? k : fail();
  };
  const value = (): Shape => {
    if (eat("{")) {
      const m = text[at] === "}" ? {} : members();
      return eat("}") ? m : fail();
    }
    if (eat("[")) {
      const elements: Shape[] = [];
      if (text[at] !== "]")
        do elements.push(eat(".") ? true : text[at] === "{" || text[at] === "[" ? value() : fail());
        while (eat(","));
      return eat("]") ? elements : fail();
    }
    return true;
  };
  const members = (): Members => {
    // Built from entries: a key such as `__proto__` stays a key.
    const entries: [string, Shape][] = [];
    do entries.push([key(), value()]);
    while (eat(","));
    return Object.fromEntries(entries);
  };

  if (text === "") return {};
  try {
    const shape = members();
    return at === text.length ? shape : fail();
  } catch (e) {
    // A malformed JSON key is a damaged text too.
    if (e instanceof SyntaxError) throw new ShapeTextError(text, at);
    throw e;
  }
}
