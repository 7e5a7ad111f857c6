// DESIGN item 9: one error registry, and its documentation in emulator/README.md matches it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { API_ERRORS, EVENT_ERRORS, OAUTH_ERRORS } from "../../emulator/src";

const README = readFileSync(join(__dirname, "..", "..", "emulator", "README.md"), "utf8");

function table(marker: string): string[][] {
  const m = new RegExp(`<!-- ${marker}:start -->([\\s\\S]*?)<!-- ${marker}:end -->`).exec(README);
  if (!m) throw new Error(`README has no ${marker} table`);
  return m[1]
    .trim()
    .split("\n")
    .slice(2)
    .map((row) =>
      row
        .split("|")
        .slice(1, -1)
        .map((c) => c.trim()),
    );
}

test("the README's REST error table lists exactly the registry's entries (name, status, code, message)", () => {
  const documented = table("errors");
  const registry = Object.entries(API_ERRORS).map(([name, e]) => [name, String(e.status), String(e.code), e.message]);
  expect(documented).toEqual(registry);
});

test("the README's OAuth error table lists exactly the registry's OAuth errors", () => {
  const documented = table("oauth-errors");
  const registry = Object.entries(OAUTH_ERRORS).map(([name, e]) => [name, String(e.status), e.message]);
  expect(documented).toEqual(registry);
});

test("the README's Events API error table lists exactly the registry's event errors", () => {
  const documented = table("event-errors");
  const registry = Object.entries(EVENT_ERRORS).map(([name, e]) => [name, String(e.status), e.message]);
  expect(documented).toEqual(registry);
});

test("every registry entry has a 4xx or 5xx status and a message", () => {
  for (const e of [...Object.values(API_ERRORS), ...Object.values(OAUTH_ERRORS), ...Object.values(EVENT_ERRORS)]) {
    expect(e.status).toBeGreaterThanOrEqual(400);
    expect(e.status).toBeLessThan(600);
    expect(e.message.length).toBeGreaterThan(0);
  }
});
