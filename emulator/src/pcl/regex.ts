// Regular expressions as PagerDuty runs them: RE2 (re2js, a pure JavaScript port of Google's RE2;
// JavaScript's own engine differs: backreferences, lookaround, other escapes), compiled once.
// `matches regex` runs case-insensitive unless `exactly`, always with the s and m flags (PCL
// overview); the regexes of variables, extractions and cache variables run with RE2's defaults.
import { RE2JS } from "re2js";

const PCL_FLAGS = RE2JS.DOTALL | RE2JS.MULTILINE;

/** Compile, or throw RE2's own message ("error parsing regexp: missing closing ): `a(b`"). */
export function compileRegex(pattern: string, pcl?: { exactly: boolean }): RE2JS {
  return RE2JS.compile(pattern, pcl ? PCL_FLAGS | (pcl.exactly ? 0 : RE2JS.CASE_INSENSITIVE) : 0);
}

/** Why RE2 refuses `pattern`, or undefined when it compiles. */
export function regexProblem(pattern: string): string | undefined {
  try {
    compileRegex(pattern);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

const cache = new Map<string, RE2JS>();

/** A compiled regex of a variable, extraction or cache variable (kept: the same few run on every event). */
export function cachedRegex(pattern: string): RE2JS {
  let re = cache.get(pattern);
  if (!re) {
    re = compileRegex(pattern);
    if (cache.size > 1000) cache.clear();
    cache.set(pattern, re);
  }
  return re;
}

/**
 * What a regex takes from `text`, as PagerDuty's extractions and cache variables do: its capture
 * groups' values appended together, or the whole match when it has none; undefined when it does
 * not match.
 */
export function extract(re: RE2JS, text: string): string | undefined {
  const m = re.matcher(text);
  if (!m.find()) return undefined;
  const groups = m.groupCount();
  if (!groups) return m.group(0) ?? "";
  let out = "";
  for (let g = 1; g <= groups; g++) out += m.group(g) ?? "";
  return out;
}
