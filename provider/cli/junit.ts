// JUnit XML, the report format CI systems read (GitHub test reporters, GitLab, Jenkins): one
// <testsuite> of <testcase>s, a failing one with a <failure> holding its text. Written by hand: the
// format needs a dozen lines, a library would bring a dependency for them. Text is escaped, and the
// characters XML 1.0 cannot hold at all (most control characters, lone surrogates) are replaced.

export interface JUnitCase {
  name: string;
  /** Groups cases in a report (a suite or file name). */
  classname: string;
  /** Set for a failing case: a one-line message and the full text. */
  failure?: { message: string; text: string };
}

/** Characters XML 1.0 does not allow anywhere, even escaped. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these control characters are what it finds
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** What each character XML gives a meaning to (or an attribute value would fold) is written as. */
const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;", "\r": "&#13;", "\n": "&#10;", "\t": "&#9;" };

/** Text for an attribute value or element content. */
export function xmlEscape(text: string): string {
  return text.replace(NOT_XML, "\uFFFD").replace(/[&<>"'\r\n\t]/g, (c) => ENTITIES[c]);
}

/** Element content: newlines and tabs kept as they are (only attributes need them as references). */
const content = (text: string) => xmlEscape(text).replace(/&#10;/g, "\n").replace(/&#9;/g, "\t");

/** One suite named `suite` with its cases. */
export function junitXml(suite: string, cases: readonly JUnitCase[]): string {
  const failures = cases.filter((c) => c.failure).length;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlEscape(suite)}" tests="${cases.length}" failures="${failures}" errors="0">`,
    `  <testsuite name="${xmlEscape(suite)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="0">`,
  ];
  for (const c of cases) {
    const open = `    <testcase name="${xmlEscape(c.name)}" classname="${xmlEscape(c.classname)}"`;
    if (!c.failure) lines.push(`${open}/>`);
    else
      lines.push(
        `${open}>`,
        `      <failure message="${xmlEscape(c.failure.message)}" type="mismatch">${content(c.failure.text)}</failure>`,
        "    </testcase>",
      );
  }
  lines.push("  </testsuite>", "</testsuites>");
  return `${lines.join("\n")}\n`;
}
