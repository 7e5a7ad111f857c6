// provider/cli/junit.ts: JUnit XML that CI parsers read: counts, a failure's message and text, and
// escaping of everything XML cannot hold as it is.
import { junitXml, xmlEscape } from "../../../../provider/cli/junit";

test("a suite with a passing and a failing case: counts, the failure's message as an attribute, its text as content", () => {
  const xml = junitXml("cases.yaml", [
    { name: "passes", classname: "cases.yaml" },
    {
      name: "fails",
      classname: "cases.yaml",
      failure: { message: "urgency: expected high, got low", text: 'FAIL 2. fails\n  rule 1 "Out of hours": matched' },
    },
  ]);
  expect(xml).toBe(
    [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<testsuites name="cases.yaml" tests="2" failures="1" errors="0">',
      '  <testsuite name="cases.yaml" tests="2" failures="1" errors="0" skipped="0">',
      '    <testcase name="passes" classname="cases.yaml"/>',
      '    <testcase name="fails" classname="cases.yaml">',
      '      <failure message="urgency: expected high, got low" type="mismatch">FAIL 2. fails\n  rule 1 &quot;Out of hours&quot;: matched</failure>',
      "    </testcase>",
      "  </testsuite>",
      "</testsuites>",
      "",
    ].join("\n"),
  );
});

test("markup, quotes, newlines in attributes and characters XML 1.0 forbids are escaped or replaced", () => {
  expect(xmlEscape(`a<b>&"c"'d'`)).toBe("a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;");
  expect(xmlEscape("line 1\nline 2\tend\r")).toBe("line 1&#10;line 2&#9;end&#13;");
  expect(xmlEscape("bell\u0007 nul\u0000 lone\uD800 pair\uD83D\uDE00")).toBe("bell\uFFFD nul\uFFFD lone\uFFFD pair\uD83D\uDE00");
  const xml = junitXml("s", [{ name: "</testcase><x>", classname: "c", failure: { message: "m\nn", text: "]]> <![CDATA[" } }]);
  expect(xml).toContain('name="&lt;/testcase&gt;&lt;x&gt;"');
  expect(xml).toContain('message="m&#10;n"');
  expect(xml).toContain(">]]&gt; &lt;![CDATA[</failure>");
});
