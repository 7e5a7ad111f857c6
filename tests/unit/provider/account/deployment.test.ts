import { Deployment } from "../../../../provider/account/deployment";
import { ConfigError } from "../../../../provider/errors";

const deployment = new Deployment({ warn: () => undefined });
const configure = (get: (key: string) => string | undefined) => deployment.configure(get);
const getClient = () => deployment.context().client;

const config = (m: Record<string, string>) => (key: string) => m[key];
const acme = { "pagerduty:clientId": "cid", "pagerduty:clientSecret": "cs", "pagerduty:subdomain": "acme" };
const saved = { ...process.env };

beforeEach(() => {
  for (const key of Object.keys(process.env)) if (key.startsWith("PAGERDUTY_")) delete process.env[key];
});
afterEach(async () => {
  process.env = { ...saved };
  await deployment.reset();
});

describe("deployment", () => {
  it("shares one account context (one client) per account and credential across providers", () => {
    configure(config(acme));
    const first = getClient();
    const context = deployment.context();
    configure(config({ ...acme })); // every resource type's provider configures again
    expect(getClient()).toBe(first);
    expect(deployment.context()).toBe(context);
    configure(config({ ...acme, "pagerduty:subdomain": "other" }));
    expect(getClient()).not.toBe(first);
  });

  it("copies the config at configure time", () => {
    const values: Record<string, string> = { ...acme };
    configure(config(values));
    delete values["pagerduty:clientSecret"];
    values["pagerduty:subdomain"] = "changed";
    expect(() => getClient()).not.toThrow();
    expect(deployment.settings()).toMatchObject({ subdomain: "acme", credentials: { kind: "client_credentials", clientId: "cid", clientSecret: "cs" } });
  });

  it("falls back to the environment when configure was never called", () => {
    process.env.PAGERDUTY_TOKEN = "k";
    expect(deployment.settings().credentials).toEqual({ kind: "api_key", token: "k" });
    const client = getClient();
    expect(getClient()).toBe(client); // one client for the environment's account, made once
    delete process.env.PAGERDUTY_TOKEN;
    expect(() => new Deployment({ warn: () => undefined }).context()).toThrow(ConfigError); // the client came from that variable
  });

  it("reports missing credentials when the client is first needed", () => {
    expect(() => getClient()).toThrow(ConfigError);
  });
});
