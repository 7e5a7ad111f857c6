// The credential check across processes, with the provider's record of accepted credentials on
// (each Deployment here is a process of its own): every process proves the credential with its one
// token request, and only the first shows its token to the REST API (the region check); a changed
// secret is asked again and refused; the region check of a new credential is started by configure
// and waited for by the operations. HTTP over MockAgent; the cache in a temporary directory.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Deployment } from "../../../../provider/account/deployment";
import { useMockAgent } from "../../support/http-mock";

const API = "https://api.test";
const AUTH = "https://identity.test";
const json = { headers: { "content-type": "application/json" } };
const agent = useMockAgent();

let home: string;
beforeEach(() => (home = fs.mkdtempSync(path.join(os.tmpdir(), "ppd-accepted-"))));
afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

const app = (secret: string) => ({
  "pagerduty:clientId": "cid",
  "pagerduty:clientSecret": secret,
  "pagerduty:subdomain": "acme",
  "pagerduty:apiUrl": API,
  "pagerduty:authUrl": AUTH,
});

/** A process's deployment, configured with `config`. */
function processWith(config: Record<string, string>): Deployment {
  const d = new Deployment({
    warn: () => undefined,
    env: { XDG_CACHE_HOME: home },
    journalDir: path.join(home, "journal"),
    clients: { dispatcher: agent() },
    rememberAccepted: true,
  });
  d.configure((k) => config[k]);
  return d;
}

const tokenReply = { access_token: "pdat_0123456789abcdef", token_type: "bearer", expires_in: 86_400, scope: "as_account-us.acme services.read" };
const token = () => agent().get(AUTH).intercept({ path: "/oauth/token", method: "POST" }).reply(200, tokenReply, json);
const restCheck = (status = 400) =>
  agent()
    .get(API)
    .intercept({ path: "/users/me", method: "GET" })
    .reply(status, { error: { message: status === 401 ? "Authentication failed: another service region" : "app tokens have no user" } }, json);
const recorded = () =>
  fs.existsSync(path.join(home, "pulumi-pagerduty-dynamic", "accepted-credentials"))
    ? fs.readdirSync(path.join(home, "pulumi-pagerduty-dynamic", "accepted-credentials"))
    : [];

test("each process proves the credential with one token request; only the first shows the token to the REST API", async () => {
  token();
  restCheck();
  const first = processWith(app("s3cret"));
  await first.verifyCredentials();
  await first.accepted();
  await first.reset();
  // A file named by a hash: nothing of the credential or its token.
  expect(recorded()).toEqual([expect.stringMatching(/^accepted-[0-9a-f]{64}\.json$/)]);
  expect(fs.readFileSync(path.join(home, "pulumi-pagerduty-dynamic", "accepted-credentials", recorded()[0]), "utf8")).not.toMatch(/s3cret|pdat_/);

  token();
  const second = processWith(app("s3cret"));
  await second.verifyCredentials();
  await second.accepted();
  await second.reset();

  // Another secret (or API) is another entry: refused here, and nothing recorded for it.
  agent().get(AUTH).intercept({ path: "/oauth/token", method: "POST" }).reply(401, { error: "invalid_client" }, json);
  const rotated = processWith(app("another secret"));
  await expect(rotated.verifyCredentials()).rejects.toThrow(/^PagerDuty refused the credentials in "pagerduty:clientId" .* and "pagerduty:clientSecret"/);
  await rotated.reset();
  expect(recorded()).toHaveLength(1);
});

test("configure answers on the token; the REST API's refusal of it fails every operation after, and is not recorded", async () => {
  // The client asks for a new token once on a 401, and the REST API refuses that one too.
  token().times(2);
  restCheck(401).times(2);
  const d = processWith(app("s3cret"));
  await d.verifyCredentials();
  await expect(d.accepted()).rejects.toThrow(/^PagerDuty's REST API at https:\/\/api\.test refused the credentials of the default account/);
  await expect(d.accepted()).rejects.toThrow(/another service region/);
  await d.reset();
  expect(recorded()).toEqual([]);
});

test("a region check with no answer (a 503) fails nothing and records nothing", async () => {
  token();
  restCheck(503).times(4); // the client's attempts at a GET
  const d = processWith(app("s3cret"));
  await d.verifyCredentials();
  await d.accepted();
  await d.reset();
  expect(recorded()).toEqual([]);
}, 20_000);

test("after a refused region check, the next configure's check is waited for from its start", async () => {
  token().times(2);
  restCheck(401).times(2);
  const d = processWith(app("s3cret"));
  await d.verifyCredentials();
  await expect(d.accepted()).rejects.toThrow(/another service region/);
  // Checked again: an operation asking right away waits for the new region check, which refuses again.
  token();
  restCheck(401).times(2);
  const again = d.verifyCredentials();
  await expect(d.accepted()).rejects.toThrow(/another service region/);
  await again;
  await d.reset();
  expect(recorded()).toEqual([]);
});
