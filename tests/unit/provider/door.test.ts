// What both doors share: each door reads the settings under its own namespace and every message that
// names a setting names the key of that namespace (a missing credential, a refused one, a URL, a
// scope the token lacks); a setting not known yet is not judged; a
// kind's provider is made once. HTTP over MockAgent.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type Door, ProviderDoor } from "../../../provider/door";
import { UNKNOWN } from "../../../provider/kernel/check";
import { NAMESPACES } from "../../../provider/settings";
import { useMockAgent } from "../support/http-mock";

const API = "https://api.test";
const AUTH = "https://identity.test";
const json = { headers: { "content-type": "application/json" } };

const agent = useMockAgent();
let dir: string;
beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "ppd-door-"))));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const doorOf = (door: Door) => new ProviderDoor(door, { warn: () => undefined, env: {}, journalDir: dir, clients: { dispatcher: agent() } });

/** The same settings under `door`'s keys. */
const settings = (door: Door, values: Record<string, string>) => {
  const keyed = Object.fromEntries(Object.entries(values).map(([k, v]) => [`${NAMESPACES[door]}:${k}`, v]));
  return (key: string) => keyed[key];
};
const app = { clientId: "cid", subdomain: "acme", apiUrl: API, authUrl: AUTH };

describe.each(["dynamic", "package"] as const)("the %s door", (door) => {
  const ns = NAMESPACES[door];

  test("reads its own namespace and names its own keys", async () => {
    const d = doorOf(door);
    await expect(d.configure(settings(door, app))).rejects.toThrow(`"${ns}:clientSecret" (env PAGERDUTY_CLIENT_SECRET) is required with "${ns}:clientId"`);
    // The other door's keys are not read.
    const other = door === "dynamic" ? "package" : "dynamic";
    await expect(d.configure(settings(other, { ...app, clientSecret: "s" }))).rejects.toThrow(`no PagerDuty credentials: set "${ns}:clientId"`);
    await d.deployment.reset();
  });

  test("a refused secret, a URL and a missing scope are worded in its keys", async () => {
    const d = doorOf(door);
    const identity = agent().get(AUTH);
    identity.intercept({ path: "/oauth/token", method: "POST" }).reply(401, { error: "invalid_client" }, json);
    await expect(d.configure(settings(door, { ...app, clientSecret: "wrong" }))).rejects.toThrow(
      `PagerDuty refused the credentials in "${ns}:clientId" (env PAGERDUTY_CLIENT_ID) and "${ns}:clientSecret" (env PAGERDUTY_CLIENT_SECRET)`,
    );
    await expect(d.configure(settings(door, { ...app, clientSecret: "s", apiUrl: "http://api.test" }))).rejects.toThrow(`"${ns}:apiUrl" must use https`);
    identity
      .intercept({ path: "/oauth/token", method: "POST" })
      .reply(200, { access_token: "pdat_abcdefgh12345678", token_type: "bearer", expires_in: 3600, scope: "as_account-us.acme services.read" }, json);
    agent()
      .get(API)
      .intercept({ path: "/users/me", method: "GET" })
      .reply(400, { error: { message: "app tokens have no user" } }, json);
    await d.configure(settings(door, { ...app, clientSecret: "s4" }));
    // Where a network error says the URL came from.
    expect(d.context("default").client.settings.apiUrl).toBe(`${ns}:apiUrl or PAGERDUTY_API_URL`);
    await expect(d.context("default").client.request("POST", "/services", { body: {}, scopes: ["services.write"] })).rejects.toThrow(
      `add the scope to the app or to "${ns}:scopes"`,
    );
    await d.deployment.reset();
  });

  test("a setting not known until apply is not judged: nothing is asked", async () => {
    const d = doorOf(door);
    await expect(d.configure(settings(door, { ...app, clientSecret: UNKNOWN }))).resolves.toBeUndefined();
    await expect(d.configure(settings(door, { token: "k", accounts: JSON.stringify({ eu: { token: UNKNOWN } }) }))).resolves.toBeUndefined();
  });
});

test("a kind's provider is made once; a function the package lacks is no lookup", () => {
  const d = doorOf("package");
  expect(d.providerOf("Service")).toBe(d.providerOf("Service"));
  expect(d.definition("ServiceIntegration").secretOutputs).toContain("integrationKey");
  expect(d.invoke("getNothing", { args: {}, account: undefined })).toBeUndefined();
});
