// operations/lookup.ts: the one path both doors run a lookup by, over a made-up lookup (no HTTP).
import { z } from "zod";
import type { AccountContext } from "../../../../provider/account/context";
import { type Lookup, LookupMiss, performLookup } from "../../../../provider/operations/lookup";
import { ConfigError } from "../../../../provider/errors";
import { UNKNOWN } from "../../../../provider/kernel/check";
import { defineLookup } from "../../../../provider/kernel/define";

const ran: Array<{ account: string; name: string }> = [];
beforeEach(() => {
  ran.length = 0;
});

const thing: Lookup<any> = {
  definition: defineLookup({
    functionName: "getThing",
    query: "thing",
    description: "The thing with this name.",
    args: z.object({ name: z.string().min(1, "must not be empty").describe("The thing's name.") }).strict(),
    result: z.object({ id: z.string().describe("Id of the thing.") }),
  }),
  async run(ctx, { name }) {
    ran.push({ account: (ctx as unknown as { account: string }).account, name });
    if (name === "gone") throw new LookupMiss("name", 'no thing is named "gone"');
    if (name === "broken") throw new Error("the API broke");
    return { id: `T-${name}` };
  },
};

/** A context that only says which account it is for; "nowhere" is an account the settings lack. */
const contextOf = (account: string) => {
  if (account === "nowhere") throw new ConfigError('the stack config declares no account "nowhere" in pagerduty:accounts');
  return { account } as unknown as AccountContext;
};

const perform = (args: unknown, account?: unknown, at: string[] = ["args"]) => performLookup(thing, { args, account }, contextOf, at);

test("found: the query runs in the account named (the default when none is), with the parsed arguments", async () => {
  await expect(perform({ name: "a" })).resolves.toEqual({ kind: "found", args: { name: "a" }, result: { id: "T-a" } });
  await expect(perform({ name: "b" }, "eu")).resolves.toMatchObject({ kind: "found" });
  expect(ran).toEqual([
    { account: "default", name: "a" },
    { account: "eu", name: "b" },
  ]);
});

test("a value not known yet, in an argument or the account, is not judged and not queried", async () => {
  await expect(perform({ name: UNKNOWN })).resolves.toEqual({ kind: "unknown" });
  await expect(perform({ name: "a" }, UNKNOWN)).resolves.toEqual({ kind: "unknown" });
  await expect(perform({ name: "", extra: [UNKNOWN] })).resolves.toEqual({ kind: "unknown" });
  expect(ran).toEqual([]);
});

test("failures name the field: the account at the top, the arguments under `at`", async () => {
  const account = 'account: must be a letter followed by up to 39 letters, digits, "-" or "_"; got "e u"';
  for (const at of [["args"], []]) {
    await expect(perform({ name: "a" }, "e u", at)).resolves.toEqual({ kind: "failed", failures: [{ property: "", reason: account }] });
    const prefix = at.length ? "args." : "";
    await expect(perform({ name: "" }, undefined, at)).resolves.toEqual({
      kind: "failed",
      failures: [{ property: "", reason: `${prefix}name: must not be empty` }],
    });
    await expect(perform({ name: "gone" }, undefined, at)).resolves.toEqual({
      kind: "failed",
      failures: [{ property: "", reason: `${prefix}name: no thing is named "gone"` }],
    });
  }
  await expect(perform({ name: "a", extra: 1 })).resolves.toMatchObject({ failures: [{ reason: expect.stringMatching(/^args: Unrecognized key/) }] });
  await expect(perform(undefined)).resolves.toMatchObject({ failures: [{ reason: "args: Required" }] });
});

test("an account the settings lack is a failure saying so; any other error is the API's and propagates", async () => {
  await expect(perform({ name: "a" }, "nowhere")).resolves.toEqual({
    kind: "failed",
    failures: [{ property: "", reason: 'the stack config declares no account "nowhere" in pagerduty:accounts' }],
  });
  await expect(perform({ name: "broken" })).rejects.toThrow("the API broke");
});

test("a miss is a typed error when it escapes (ERR_INPUT), naming the argument", () => {
  const miss = new LookupMiss("service", 'no service has id "PX"');
  expect(miss).toMatchObject({ code: "ERR_INPUT", argument: "service", message: 'no service has id "PX"', name: "LookupMiss" });
});
