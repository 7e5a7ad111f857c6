// Credentials used in the other service region are refused, but the credentials are not what is
// wrong: the credential check names the region settings and the account, not clientId/clientSecret
// or the API key. HTTP over MockAgent.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Deployment } from "../../../../provider/account/deployment";
import { ACCOUNTS_KEY } from "../../../../provider/config";
import { useMockAgent } from "../../support/http-mock";

const API = "https://api.test";
const AUTH = "https://identity.test";
const json = { headers: { "content-type": "application/json" } };
const WRONG_REGION = {
  error: { message: "Authentication failed", code: 2006, errors: ["This account's data is in the EU service region; use https://api.test/eu"] },
};

const agent = useMockAgent();
let dir: string;
beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "ppd-region-"))));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const deploymentOf = (config: Record<string, string>) => {
  const d = new Deployment({ warn: () => undefined, env: {}, journalDir: dir, clients: { dispatcher: agent() } });
  d.configure((k) => config[k]);
  return d;
};
const app = {
  "pagerduty:clientId": "cid",
  "pagerduty:clientSecret": "csecret",
  "pagerduty:subdomain": "globex",
  "pagerduty:apiUrl": API,
  "pagerduty:authUrl": AUTH,
};
const token = (scope: string) => ({ access_token: "pdat_0123456789abcdef", token_type: "bearer", expires_in: 3600, scope });

/** The credential check's failure: configure's part, or the region check every operation then waits for. */
async function refusal(d: Deployment): Promise<string> {
  const e = await d
    .verifyCredentials()
    .then(
      () => d.accepted(),
      (err: Error) => Promise.reject(err),
    )
    .then(
      () => undefined,
      (err: Error) => err,
    );
  await d.reset();
  if (!e) throw new Error("the credential check passed");
  return e.message;
}

test("an app asked for in the wrong region names serviceRegion and subdomain, not the app's credentials", async () => {
  agent()
    .get(AUTH)
    .intercept({ path: "/oauth/token", method: "POST" })
    .reply(400, { error: "invalid_scope", error_description: 'No account "globex" in region "us"' }, json);
  const message = await refusal(deploymentOf(app));
  expect(message).toMatch(/^PagerDuty's identity service found no account "globex" in the US service region for the default account: /);
  expect(message).toContain(
    'Set "pagerduty:subdomain" (env PAGERDUTY_SUBDOMAIN) to the account\'s subdomain and "pagerduty:serviceRegion" (env PAGERDUTY_SERVICE_REGION) to its service region ("us" or "eu"; now "us")',
  );
  expect(message).not.toMatch(/clientSecret|refused the credentials/);
});

test("an app token the REST API of the other region refuses names serviceRegion, apiUrl and the account (configure answers on the token; the operations wait for this answer)", async () => {
  // The client fetches a new token once on a 401, and the REST API refuses that one too.
  agent().get(AUTH).intercept({ path: "/oauth/token", method: "POST" }).reply(200, token("as_account-eu.globex services.read"), json).times(2);
  agent().get(API).intercept({ path: "/users/me", method: "GET" }).reply(401, WRONG_REGION, json).times(2);
  const message = await refusal(deploymentOf({ ...app, "pagerduty:serviceRegion": "eu" }));
  expect(message).toMatch(
    /^PagerDuty's REST API at https:\/\/api\.test refused the credentials of the default account, which belong to an account of another service region: GET \/users\/me failed: 401/,
  );
  expect(message).toContain("use https://api.test/eu");
  expect(message).toContain(
    'Set "pagerduty:serviceRegion" (env PAGERDUTY_SERVICE_REGION) to the account\'s service region ("us" or "eu"; now "eu") and "pagerduty:apiUrl" (env PAGERDUTY_API_URL) to that region\'s REST API',
  );
});

test("the REST check of an app token accepts any answer but 401 (an app token has no user: 400)", async () => {
  agent().get(AUTH).intercept({ path: "/oauth/token", method: "POST" }).reply(200, token("as_account-us.globex services.read"), json);
  agent()
    .get(API)
    .intercept({ path: "/users/me", method: "GET" })
    .reply(400, { error: { message: "Invalid Input Provided", code: 2001 } }, json);
  const d = deploymentOf(app);
  await expect(d.verifyCredentials()).resolves.toBeUndefined();
  await expect(d.accepted()).resolves.toBeUndefined();
  await d.reset();
});

test("an API key of a named account at the other region's URL names that account's region settings", async () => {
  agent().get(API).intercept({ path: "/services?limit=1", method: "GET" }).reply(401, WRONG_REGION, json);
  const d = deploymentOf({ [ACCOUNTS_KEY]: JSON.stringify({ eu: { token: "k", apiUrl: API } }) });
  const message = await refusal(d);
  expect(message).toMatch(
    /^PagerDuty's REST API at https:\/\/api\.test refused the credentials of account "eu", which belong to an account of another service region/,
  );
  expect(message).toContain('"pagerduty:accounts.eu.serviceRegion"');
  expect(message).toContain('"pagerduty:accounts.eu.apiUrl"');
  expect(message).not.toContain("pagerduty:accounts.eu.token");
});

test("an API key refused for itself (no word of a region) still names the key", async () => {
  agent()
    .get(API)
    .intercept({ path: "/services?limit=1", method: "GET" })
    .reply(401, { error: { message: "Authentication failed", code: 2006 } }, json);
  const message = await refusal(deploymentOf({ "pagerduty:token": "k", "pagerduty:apiUrl": API }));
  expect(message).toMatch(/^PagerDuty refused the credentials in "pagerduty:token"/);
});
