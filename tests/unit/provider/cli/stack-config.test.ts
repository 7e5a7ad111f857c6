// provider/cli/stack-config.ts: what `pulumi ... --show-secrets` prints is parsed without ever
// quoting it (it holds decrypted secrets), and a state's secret is revealed by its signature.
import { PagerDutyError } from "../../../../provider/errors";
import { parseShown, revealed } from "../../../../provider/cli/stack-config";

const SECRET = "s3cret-4f9a2c";

test("a reply that is not JSON is refused by the command, its text (a secret in it) never quoted", () => {
  const text = `{"pagerduty:clientSecret": {"value": "${SECRET}", "secret": true}`;
  let error: unknown;
  try {
    parseShown(text, "stack export --show-secrets");
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(PagerDutyError);
  expect((error as PagerDutyError).code).toBe("ERR_STATE");
  expect((error as Error).message).toBe("`pulumi stack export --show-secrets` printed something that is not JSON");
  expect(String((error as Error).stack)).not.toContain(SECRET);
  expect(() => parseShown(`token=${SECRET}`, "config --json --show-secrets")).toThrow(expect.objectContaining({ code: "ERR_CONFIG" }));
  expect(parseShown(`{"a": "${SECRET}"}`, "stack output --json --show-secrets")).toEqual({ a: SECRET });
});

test("a secret is revealed by the engine's signature only; errors name the value, never quote it", () => {
  const sig = "4dabf18193072939515e22adb298388d";
  expect(revealed({ [sig]: "1b47061264138c4ac30d75fd1eb44270", plaintext: JSON.stringify(SECRET) })).toBe(SECRET);
  expect(revealed({ plaintext: JSON.stringify(SECRET) })).toEqual({ plaintext: JSON.stringify(SECRET) });
  expect(() => revealed({ [sig]: "x", ciphertext: "AAAA" }, "a routing key")).toThrow("a routing key in the state is still encrypted");
  expect(() => revealed({ [sig]: "x", plaintext: SECRET }, "a routing key")).toThrow("a routing key in the state is not the JSON the engine writes");
  expect(() => revealed({ [sig]: "x", plaintext: SECRET })).not.toThrow(new RegExp(SECRET));
});
