// Named accounts: `pagerduty:accounts` in the stack config, one context (client, journal) per account
// in the deployment, the credential check of every configured account, and the `account` input every
// resource takes (its operations go to that account; a change replaces). HTTP over MockAgent.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Deployment } from "../../../../provider/account/deployment";
import { ACCOUNTS_KEY, parseAccounts, resolveSettings } from "../../../../provider/config";
import { ConfigError } from "../../../../provider/errors";
import { makeProvider } from "../../../../provider/operations/factory";
import { resource as service } from "../../../../provider/resources/service";
import { useMockAgent } from "../../support/http-mock";

const US = "https://api.us.test";
const EU = "https://api.eu.test";

const accounts = (m: Record<string, unknown>) => JSON.stringify(m);
const config = (m: Record<string, string>) => (key: string) => m[key];

describe("pagerduty:accounts", () => {
  test.each([
    ["not json", /"pagerduty:accounts" must be a map .* it is not JSON/],
    ["[1]", /must be a map from account names to settings; got a list/],
    [accounts({ "1eu": {} }), /"pagerduty:accounts\.1eu": an account name must be a letter/],
    [accounts({ default: {} }), /"pagerduty:accounts\.default": "default" names the top-level pagerduty:\* settings/],
    [accounts({ eu: "x" }), /"pagerduty:accounts\.eu" must be a map of settings/],
    [accounts({ eu: { region: "eu" } }), /"pagerduty:accounts\.eu"\.region is not an account setting; known: clientId/],
    [accounts({ eu: { clientSecret: 5 } }), /"pagerduty:accounts\.eu"\.clientSecret must be a string; got 5/],
  ])("%s is refused naming what is wrong", (raw, message) => {
    expect(() => parseAccounts(raw)).toThrow(ConfigError);
    expect(() => parseAccounts(raw)).toThrow(message);
  });

  test("a named account's settings come from its entry; numbers and scope lists are accepted", () => {
    const get = config({
      [ACCOUNTS_KEY]: accounts({ eu: { token: "k", serviceRegion: "eu", maxConcurrency: 3, scopes: ["services.read", "services.write"] } }),
    });
    const s = resolveSettings(get, {}, "eu");
    expect(s).toMatchObject({ account: "eu", apiUrl: "https://api.eu.pagerduty.com", maxConcurrency: 3, scopes: ["services.read", "services.write"] });
    expect(s.credentials).toEqual({ kind: "api_key", token: "k" });
  });

  test("a named account inherits nothing from the top-level settings or the environment", () => {
    const get = config({ "pagerduty:token": "top", [ACCOUNTS_KEY]: accounts({ eu: { clientId: "cid", subdomain: "globex" } }) });
    expect(() => resolveSettings(get, { PAGERDUTY_CLIENT_SECRET: "env" }, "eu")).toThrow(
      /"pagerduty:accounts\.eu\.clientSecret" is required with "pagerduty:accounts\.eu\.clientId"/,
    );
  });

  test("an account the config does not declare is named, with the command that declares it", () => {
    expect(() => resolveSettings(config({}), {}, "apac")).toThrow(
      /account "apac" is not configured: declare it in "pagerduty:accounts" \(pulumi config set --path 'pagerduty:accounts\.apac\.subdomain'/,
    );
  });

  test("a named account's insecure URL names its key", () => {
    const get = config({ [ACCOUNTS_KEY]: accounts({ eu: { token: "k", apiUrl: "http://api.example.com" } }) });
    expect(() => resolveSettings(get, {}, "eu")).toThrow(/"pagerduty:accounts\.eu\.apiUrl" must use https/);
  });
});

describe("one context per account", () => {
  const agent = useMockAgent();
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "ppd-accounts-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const twoAccounts = config({
    "pagerduty:token": "us-key",
    "pagerduty:apiUrl": US,
    [ACCOUNTS_KEY]: accounts({ eu: { token: "eu-key", apiUrl: EU, serviceRegion: "eu" } }),
  });
  const deploymentOf = (get = twoAccounts) => {
    const d = new Deployment({ warn: () => undefined, env: {}, journalDir: dir, clients: { dispatcher: agent() } });
    d.configure(get);
    return d;
  };

  test("each account has its own client and journal; the default account's journal stays where it was", async () => {
    const d = deploymentOf();
    const [us, eu] = [d.context(), d.context("eu")];
    expect(eu).not.toBe(us);
    expect(eu.client).not.toBe(us.client);
    expect([us.account, eu.account]).toEqual(["default", "eu"]);
    expect(us.journal.dir).toBe(dir);
    expect(eu.journal.dir).toBe(path.join(dir, "accounts", "eu"));
    expect(d.context("eu")).toBe(eu);
    await d.reset();
  });

  test("the configured accounts: the named ones, and the default one when it has credentials or is alone", async () => {
    expect(deploymentOf().configuredAccounts()).toEqual(["default", "eu"]);
    expect(deploymentOf(config({ [ACCOUNTS_KEY]: accounts({ eu: { token: "k" } }) })).configuredAccounts()).toEqual(["eu"]);
    expect(deploymentOf(config({})).configuredAccounts()).toEqual(["default"]);
  });

  test("the credential check covers every account and names the one refused", async () => {
    const ok = { services: [], limit: 1, offset: 0, more: false };
    agent()
      .get(US)
      .intercept({ path: "/services?limit=1", method: "GET" })
      .reply(200, ok, { headers: { "content-type": "application/json" } });
    agent()
      .get(EU)
      .intercept({ path: "/services?limit=1", method: "GET" })
      .reply(401, { error: { message: "Unauthorized", code: 2006 } }, { headers: { "content-type": "application/json" } });
    const d = deploymentOf();
    await expect(d.verifyCredentials()).rejects.toThrow(/refused the credentials of account "eu" in "pagerduty:accounts\.eu\.token"/);
    await d.reset();
  });

  test("a resource's operations go to the account it names, which its outputs keep", async () => {
    const d = deploymentOf();
    const p = makeProvider(service, (a) => d.context(a));
    const body = (id: string) => ({
      service: { id, name: "S", description: null, escalation_policy: { id: "PEP", type: "escalation_policy_reference" }, status: "active" },
    });
    const json = { headers: { "content-type": "application/json" } };
    agent().get(EU).intercept({ path: "/services", method: "POST" }).reply(201, body("PEU"), json);
    agent().get(EU).intercept({ path: "/services/PEU", method: "GET" }).reply(200, body("PEU"), json);
    agent().get(EU).intercept({ path: "/services/PEU", method: "DELETE" }).reply(204, "");
    const made = await p.create({ name: "S", escalationPolicy: "PEP", account: "eu" });
    expect(made.id).toBe("PEU");
    expect(made.outs.account).toBe("eu");
    const read = await p.read("PEU", made.outs);
    expect(read.props?.account).toBe("eu");
    await p.delete("PEU", read.props!);
    await d.reset();
  });

  test("check names a bad account name and an account the config lacks; diff replaces on a change of account", async () => {
    const d = deploymentOf();
    const p = makeProvider(service, (a) => d.context(a));
    const news = { name: "S", escalationPolicy: "PEP" };
    expect((await p.check({}, { ...news, account: "no good" })).failures?.[0]?.reason).toMatch(/^account: must be a letter followed by/);
    expect((await p.check({}, { ...news, account: "apac" })).failures?.[0]?.reason).toMatch(/account "apac" is not configured/);
    const checked = await p.check({}, { ...news, account: "eu" });
    expect(checked.failures).toBeUndefined();
    expect(checked.inputs?.account).toBe("eu");
    const olds = { ...news, id: "P1" };
    expect(await p.diff("P1", olds, { ...news, account: "eu" })).toMatchObject({ changes: true, replaces: ["account"] });
    expect(await p.diff("P1", { ...olds, account: "eu" }, news)).toMatchObject({ changes: true, replaces: ["account"] });
    // "default" names the top-level account: no change.
    expect((await p.diff("P1", olds, { ...news, account: "default" })).changes).toBe(false);
    await d.reset();
  });
});
