// A planned write the credentials cannot make fails the preview; a refresh's own diff plans nothing.
import { createClient } from "../../../../provider/account/client";
import { AccountContext } from "../../../../provider/account/context";
import { resolveSettings } from "../../../../provider/config";
import { makeProvider } from "../../../../provider/operations/factory";
import { resource, toOutputs } from "../../../../provider/resources/service";
import { apiService } from "../../support/api-objects";
import { useMockAgent } from "../../support/http-mock";
import { virtualConsistency } from "../../support/virtual-consistency";

const API = "https://api.test";
const AUTH = "https://identity.test";
const agent = useMockAgent();
let ctx: AccountContext;
const provider = makeProvider(resource, () => ctx);

/** The account's client with an app token granted `scope` (scopes asked for explicitly: no optional ones). */
function grant(scope: string) {
  const settings = resolveSettings(() => undefined, {
    PAGERDUTY_API_URL: API,
    PAGERDUTY_AUTH_URL: AUTH,
    PAGERDUTY_CLIENT_ID: "cid",
    PAGERDUTY_CLIENT_SECRET: "s",
    PAGERDUTY_SUBDOMAIN: "acme",
    PAGERDUTY_SCOPES: "services.read services.write",
  });
  const client = createClient({ ...settings, retry: { ...settings.retry, timeScale: 0.001 } }, { dispatcher: agent() });
  ctx = new AccountContext({ client, warn: () => undefined, consistency: virtualConsistency().consistency });
  agent()
    .get(AUTH)
    .intercept({ method: "POST", path: "/oauth/token" })
    .reply(200, { access_token: "at", token_type: "bearer", expires_in: 86400, scope: `as_account-us.acme ${scope}` });
}

const live = toOutputs(apiService("PSVC1", "Checkout"));
const news = { name: "Checkout", escalationPolicy: "PEP1", description: "changed" };
const REFUSED = /the program plans to (create|update) this Service, and the credentials' token lacks "services\.write", which that needs/;

test("a read-only token fails the check of a new resource, naming the scope", async () => {
  grant("services.read");
  const r = await provider.check({}, { name: "New", escalationPolicy: "PEP1" });
  expect(r.failures).toEqual([{ property: "", reason: expect.stringMatching(REFUSED) }]);
  // An existing resource's check plans nothing by itself.
  await expect(provider.check({ name: "Checkout", escalationPolicy: "PEP1" }, news)).resolves.not.toHaveProperty("failures");
});

test("a read-only token fails a diff that plans an update, but not the diff of a refresh that read the object", async () => {
  grant("services.read");
  await expect(provider.diff("PSVC1", live, news)).rejects.toThrow(REFUSED);
  await expect(provider.diff("PSVC1", live, { name: "Checkout", escalationPolicy: "PEP1" })).resolves.toMatchObject({ changes: false });
  ctx.drift.markRead("Service", "PSVC1");
  await expect(provider.diff("PSVC1", live, news)).resolves.toMatchObject({ changes: true });
  // Only that once: the plan's diff after it (`up --refresh`) is judged again.
  await expect(provider.diff("PSVC1", live, news)).rejects.toThrow(REFUSED);
});

test("a token granted the write scope passes both", async () => {
  grant("services.read services.write");
  await expect(provider.check({}, { name: "New", escalationPolicy: "PEP1" })).resolves.not.toHaveProperty("failures");
  await expect(provider.diff("PSVC1", live, news)).resolves.toMatchObject({ changes: true });
});
