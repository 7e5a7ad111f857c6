// provider/account/stack-name.ts: the fully qualified stack a package plugin deploys, from the URN
// and the backend, or the CLI for Pulumi Cloud; the CLI is asked only there, and only its answers
// that name the URN's project and stack are taken.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isDiyBackend, qualifiedStack, showStack, stackOfUrn, type ShowStack } from "../../../../provider/account/stack-name";

const AT = { project: "billing", stack: "prod" };

/** A ShowStack answering from a table (undefined: the CLI fails), recording what it was asked. */
function shows(answers: Record<string, string | undefined>) {
  const asked: Array<string | undefined> = [];
  const show: ShowStack = async (stack) => {
    asked.push(stack);
    const answer = answers[stack ?? "(current)"];
    if (answer === undefined) throw new Error("no stack");
    return `${answer}\n`;
  };
  return { show, asked };
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "ppd-stack-name-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

test("the URN names project and stack; anything else names none", () => {
  expect(stackOfUrn("urn:pulumi:prod::billing::pagerduty-dynamic:index:Service::checkout")).toEqual(AT);
  expect(stackOfUrn("urn:pulumi:prod::billing::pulumi:providers:pagerduty-dynamic$pagerduty-dynamic:index:Service::a")).toEqual(AT);
  expect(stackOfUrn("checkout")).toBeUndefined();
});

test.each([
  ["file:///var/state", true],
  ["file://~", true],
  ["s3://bucket/prefix?endpoint=http://127.0.0.1:9000&use_path_style=true&region=us-east-1", true],
  ["gs://bucket", true],
  ["azblob://container", true],
  ["postgres://user@db/pulumi", true],
  ["https://api.pulumi.com", false],
  ["https://pulumi.example.com", false],
  ["not a url", false],
])("a backend in storage has the fixed organization: %s -> %s", (url, diy) => {
  expect(isDiyBackend(url)).toBe(diy);
});

test.each(["file:///tmp/state", "s3://bucket?endpoint=http://127.0.0.1:1&use_path_style=true&region=us-east-1"])(
  "a backend in storage (%s): organization/<project>/<stack>, no CLI asked",
  async (url) => {
    const { show, asked } = shows({});
    await expect(qualifiedStack(AT, { env: { PULUMI_BACKEND_URL: url }, cwd: dir, show })).resolves.toBe("organization/billing/prod");
    expect(asked).toEqual([]);
  },
);

test("the login's backend counts when no PULUMI_BACKEND_URL is set", async () => {
  writeFileSync(join(dir, "credentials.json"), JSON.stringify({ current: "s3://team-state" }));
  const { show, asked } = shows({});
  await expect(qualifiedStack(AT, { env: { PULUMI_HOME: dir }, cwd: dir, show })).resolves.toBe("organization/billing/prod");
  expect(asked).toEqual([]);
});

describe("Pulumi Cloud: the CLI says the organization", () => {
  const cloud = { PULUMI_BACKEND_URL: "https://api.pulumi.com" };

  test("the current stack (PULUMI_STACK or the selection) when it is the URN's", async () => {
    const { show, asked } = shows({ "(current)": "acme/billing/prod", prod: "me/billing/prod" });
    await expect(qualifiedStack(AT, { env: cloud, cwd: dir, show })).resolves.toBe("acme/billing/prod");
    expect(asked).toEqual([undefined]);
  });

  test("another current stack, or none: the URN's stack name as the CLI resolves it", async () => {
    for (const current of ["acme/billing/staging", "acme/other/prod", undefined]) {
      const { show, asked } = shows({ "(current)": current, prod: "me/billing/prod" });
      await expect(qualifiedStack(AT, { env: cloud, cwd: dir, show })).resolves.toBe("me/billing/prod");
      expect(asked).toEqual([undefined, "prod"]);
    }
  });

  test("an answer naming another stack is refused, saying what it named", async () => {
    const { show } = shows({ prod: "me/other/prod" });
    await expect(qualifiedStack(AT, { env: cloud, cwd: dir, show })).rejects.toThrow(
      'the pulumi CLI names stack "prod" of project "billing" as "me/other/prod", which is not it',
    );
  });

  test("the CLI's failure is the error", async () => {
    const { show } = shows({});
    await expect(qualifiedStack(AT, { env: cloud, cwd: dir, show })).rejects.toThrow("no stack");
  });
});

test("showStack runs `pulumi stack --show-name --fully-qualify-stack-names` in the project directory, with --stack when given", async () => {
  const fake = join(dir, "pulumi");
  writeFileSync(fake, `#!/bin/sh\necho "$PWD $*" >> "${dir}/calls"\necho acme/billing/prod\n`);
  chmodSync(fake, 0o755);
  const show = showStack(dir, process.env, fake);
  await expect(show()).resolves.toBe("acme/billing/prod\n");
  await expect(show("prod")).resolves.toBe("acme/billing/prod\n");
  expect(readFileSync(join(dir, "calls"), "utf8").split("\n").filter(Boolean)).toEqual([
    `${dir} stack --show-name --fully-qualify-stack-names --non-interactive`,
    `${dir} stack --show-name --fully-qualify-stack-names --non-interactive --stack prod`,
  ]);
  writeFileSync(fake, `#!/bin/sh\necho "error: no stack named 'prod' found" >&2\nexit 255\n`);
  await expect(show("prod")).rejects.toThrow(
    "finding the organization of the stack with `pulumi stack --show-name` failed: error: no stack named 'prod' found",
  );
});
