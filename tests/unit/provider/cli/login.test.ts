// pagerduty-login's flow with its edges replaced: the identity service (token endpoint, discovery
// document, JWKS) is undici's MockAgent, `pulumi` is a recording function, and the "browser" is an
// HTTP request to the real loopback listener carrying what the identity service would put in the
// redirect. id_tokens are signed here with jose, by the key the mocked JWKS publishes (or another).
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from "jose";
import { Agent, request } from "undici";
import { IdTokenError, verifyIdToken } from "../../../../provider/auth/id-token";
import { Answer, parseCommandLine } from "../../../../provider/cli/command-line";
import { LOGIN } from "../../../../provider/cli/login";
import { loginAccount } from "../../../../provider/cli/login-account";
import { EXIT } from "../../../../provider/cli/login-exit";
import { login as flow, type LoginIo, type LoginOptions } from "../../../../provider/cli/login-flow";
import { reportFailures } from "../../../../provider/cli/main";
import { PulumiError } from "../../../../provider/cli/pulumi-runner";
import { DEFAULT_RETRY } from "../../../../provider/http/retry";
import { Transport } from "../../../../provider/http/transport";
import { useMockAgent } from "../../support/http-mock";

const agent = useMockAgent();
// The "browser" reaches the listener over the loopback interface, outside the MockAgent.
const browser = new Agent();
afterAll(() => browser.close());
const AUTH = "https://identity.test";
const SECRET = "client-secret-value";
const REFRESH = "pdr_refresh_token_value";
const ACCESS = "pda_access_token_value";
const FULL = "services.read services.write custom_fields.read audit_records.read";

interface Recorded {
  said: string[];
  out: string[];
  pulumi: Array<{ args: string[]; input?: string }>;
  tokenForm?: URLSearchParams;
}

/** The io of one run; `redirect` says what the browser comes back with (given the authorize URL). */
function fakeIo(rec: Recorded, redirect: ((authorize: URL) => Record<string, string>) | undefined, stack: Record<string, string> = {}): LoginIo {
  return {
    say: (line) => void rec.said.push(line),
    out: (text) => void rec.out.push(text),
    env: {},
    pulumi: (args, input) => {
      rec.pulumi.push({ args: [...args], ...(input !== undefined ? { input } : {}) });
      if (args[0] === "config" && args[1] === "--json") {
        return JSON.stringify(Object.fromEntries(Object.entries(stack).map(([k, value]) => [k, { value, secret: k.endsWith("Secret") }])));
      }
      return "";
    },
    openBrowser: (url) => {
      if (!redirect) return;
      const authorize = new URL(url);
      const back = new URL(authorize.searchParams.get("redirect_uri")!);
      for (const [k, v] of Object.entries(redirect(authorize))) back.searchParams.set(k, v);
      void request(back, { dispatcher: browser }).then(
        (r) => r.body.dump(),
        () => undefined,
      );
    },
    dispatcher: agent(),
  };
}

const STACK = { "pagerduty:clientId": "CID", "pagerduty:clientSecret": SECRET, "pagerduty:authUrl": AUTH };
const options = (o: Partial<LoginOptions> = {}): LoginOptions => ({ port: 0, print: false, browser: true, timeoutMs: 30_000, ...o });
const approve = (authorize: URL) => ({ code: "C0DE", state: authorize.searchParams.get("state")! });

let signing: { privateKey: CryptoKey; publicKey: CryptoKey };
let stranger: { privateKey: CryptoKey; publicKey: CryptoKey };
beforeAll(async () => {
  signing = await generateKeyPair("RS256");
  stranger = await generateKeyPair("RS256");
});

interface IdTokenSpec {
  clientId?: string;
  region?: string;
  subdomain?: string;
  iss?: string;
  aud?: string[];
  azp?: string;
  /** Seconds from now. */
  exp?: number;
  key?: CryptoKey;
  /** Leave out the account and region claims. */
  noAccount?: boolean;
}

/** An id_token as the identity service signs it: aud = [REST base, client id], account and region claims. */
async function idToken(o: IdTokenSpec = {}): Promise<string> {
  const clientId = o.clientId ?? "CID";
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    azp: o.azp ?? clientId,
    user: { id: "PUSER01", email: "ada@acme.example", name: "Ada Admin", role: "admin" },
    ...(o.noAccount ? {} : { account: { id: "PACCT01", subdomain: o.subdomain ?? "acme", name: "Acme Corp" }, region: o.region ?? "us" }),
  })
    .setProtectedHeader({ alg: "RS256", kid: "key-1", typ: "JWT" })
    .setIssuer(o.iss ?? AUTH)
    .setSubject("PUSER01")
    .setAudience(o.aud ?? ["https://api.test", clientId])
    .setIssuedAt(now - 5)
    .setExpirationTime(now + (o.exp ?? 3600))
    .sign(o.key ?? signing.privateKey);
}

/** The discovery document and (unless `jwks` is false) the key set, each fetched once. */
async function identityService(o: { issuer?: string; jwks?: boolean; discoveryStatus?: number } = {}): Promise<void> {
  const json = { headers: { "content-type": "application/json" } };
  agent()
    .get(AUTH)
    .intercept({ method: "GET", path: "/.well-known/openid-configuration" })
    .reply(o.discoveryStatus ?? 200, { issuer: o.issuer ?? AUTH, jwks_uri: `${AUTH}/oauth/jwks`, id_token_signing_alg_values_supported: ["RS256"] }, json);
  if (o.jwks === false) return;
  const jwk = { ...(await exportJWK(signing.publicKey)), kid: "key-1", alg: "RS256", use: "sig" };
  agent()
    .get(AUTH)
    .intercept({ method: "GET", path: "/oauth/jwks" })
    .reply(200, { keys: [jwk] }, json);
}

function tokenReply(rec: Recorded, status: number, body: unknown): void {
  agent()
    .get(AUTH)
    .intercept({ method: "POST", path: "/oauth/token" })
    .reply((opts) => {
      rec.tokenForm = new URLSearchParams(String(opts.body));
      return { statusCode: status, data: JSON.stringify(body), responseOptions: { headers: { "content-type": "application/json" } } };
    });
}

const fresh = (): Recorded => ({ said: [], out: [], pulumi: [] });
/** A run as the bin ends it: a failure said on stderr (`io.say`) and turned into its exit code. */
const login = (opts: LoginOptions, io: LoginIo) => reportFailures("pagerduty-login", io, () => flow(opts, io));
/** A `pulumi` that fails as the CLI does, saying `stderr`. */
const failing = (stderr: string) => (args: readonly string[]) => {
  throw new PulumiError(args.slice(0, 2).join(" "), stderr, 255);
};
const everything = (rec: Recorded) => [...rec.said, ...rec.out, ...rec.pulumi.map((p) => p.args.join(" "))].join("\n");

describe("the command line", () => {
  const parseLoginArgs = (argv: readonly string[]) => parseCommandLine(LOGIN, argv);
  test("defaults and every flag", () => {
    expect(parseLoginArgs([])).toMatchObject({ port: 0, print: false, browser: true, timeoutMs: 300_000 });
    expect(
      parseLoginArgs([
        "--account",
        "eu-west_2",
        "--client-id",
        "C",
        "--auth-url=https://id.example",
        "--scopes",
        "a b",
        "--port",
        "8765",
        "--stack",
        "dev",
        "--print",
        "--no-browser",
        "--timeout",
        "9",
      ]),
    ).toEqual({
      account: "eu-west_2",
      clientId: "C",
      authUrl: "https://id.example",
      scopes: "a b",
      port: 8765,
      stack: "dev",
      print: true,
      browser: false,
      timeoutMs: 9000,
    });
    // Answered as every bin answers them: the text for stdout, exit 0.
    expect(() => parseLoginArgs(["-h"])).toThrow(new Answer(LOGIN.help));
    expect(() => parseLoginArgs(["--version"])).toThrow(Answer);
  });
  test("bad input is a usage error (exit 2) naming the flag", () => {
    for (const [argv, message] of [
      [["--port", "http"], /--port must be an integer from 0 to 65535/],
      [["--port", "70000"], /--port must be an integer/],
      [["--timeout", "0"], /--timeout must be an integer from 1/],
      [["--client-secret", "x"], /Unknown option '--client-secret'/],
      [["--stack", " "], /--stack needs a value/],
      [["--account", "9eu"], /--account must be a letter followed by .*got "9eu"/],
      [["--account", "eu.west"], /--account must be a letter/],
      [["--account", ""], /--account needs a value/],
      [["extra"], /positional/i],
    ] as const) {
      expect(() => parseLoginArgs(argv)).toThrow(message);
      try {
        parseLoginArgs(argv);
      } catch (e) {
        expect((e as { exitCode: number }).exitCode).toBe(EXIT.usage);
      }
    }
  });
  test("the help names every flag, the secret's variable and the exit codes", () => {
    const flags = [...Object.keys(LOGIN.flags), "help", "version"].map((f) => `--${f}`);
    for (const s of [
      ...flags,
      "pagerduty:accounts.NAME.refreshToken",
      "pagerduty:accounts.NAME.clientSecret",
      "id_token",
      "PAGERDUTY_CLIENT_SECRET",
      "Exit codes",
    ]) {
      expect(LOGIN.help).toContain(s);
    }
  });
});

describe("login", () => {
  test("approved: PKCE + state on the URL, the secret only in the token form, the id_token verified, region and subdomain set, the token stored through stdin", async () => {
    const rec = fresh();
    let authorize: URL | undefined;
    const id = await idToken();
    tokenReply(rec, 200, { access_token: ACCESS, refresh_token: REFRESH, id_token: id, token_type: "bearer", expires_in: 3600, scope: `openid ${FULL}` });
    await identityService();
    const code = await login(
      options(),
      fakeIo(
        rec,
        (a) => {
          authorize = a;
          return approve(a);
        },
        STACK,
      ),
    );
    expect(code).toBe(EXIT.ok);
    expect(authorize!.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize!.searchParams.get("scope")).toBe(FULL);
    expect(authorize!.toString()).not.toContain(SECRET);
    expect(Object.fromEntries(rec.tokenForm!)).toMatchObject({
      grant_type: "authorization_code",
      code: "C0DE",
      client_id: "CID",
      client_secret: SECRET,
      redirect_uri: authorize!.searchParams.get("redirect_uri"),
    });
    expect(rec.tokenForm!.get("code_verifier")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The settings the id_token states first, then the token: never a token without its region.
    expect(rec.pulumi.slice(1)).toEqual([
      { args: ["config", "set", "--", "pagerduty:serviceRegion", "us"] },
      { args: ["config", "set", "--", "pagerduty:subdomain", "acme"] },
      { args: ["config", "set", "--secret", "pagerduty:refreshToken"], input: REFRESH },
    ]);
    expect(rec.out).toEqual([]);
    expect(rec.said).toContain("The id_token is verified (ada@acme.example, account Acme Corp).");
    expect(rec.said).toContain("Set pagerduty:serviceRegion = us (from the id_token) in the selected stack.");
    expect(rec.said).toContain("Set pagerduty:subdomain = acme (from the id_token) in the selected stack.");
    const shown = everything(rec);
    for (const secret of [SECRET, REFRESH, ACCESS, "C0DE", id]) expect(shown).not.toContain(secret);
  });

  test("a reply without id_token: a warning saying nothing was checked or set, and the token stored as before", async () => {
    const rec = fresh();
    tokenReply(rec, 200, { access_token: ACCESS, refresh_token: REFRESH, token_type: "bearer", expires_in: 3600, scope: `openid ${FULL}` });
    expect(await login(options(), fakeIo(rec, approve, STACK))).toBe(EXIT.ok);
    expect(rec.said.join("\n")).toMatch(
      /warning: the token reply carries no id_token, so the account logged in to could not be verified and "pagerduty:serviceRegion" and "pagerduty:subdomain" were not set/,
    );
    expect(rec.pulumi.slice(1)).toEqual([{ args: ["config", "set", "--secret", "pagerduty:refreshToken"], input: REFRESH }]);
  });

  test("--print: the token on stdout only, nothing stored, no stack needed", async () => {
    const rec = fresh();
    tokenReply(rec, 200, { access_token: ACCESS, refresh_token: REFRESH, token_type: "bearer", expires_in: 3600, scope: `openid ${FULL}` });
    const io = fakeIo(rec, approve);
    io.pulumi = (args) => {
      rec.pulumi.push({ args: [...args] });
      return failing("error: no Pulumi.yaml project file found")(args);
    };
    io.env = { PAGERDUTY_CLIENT_ID: "CID", PAGERDUTY_CLIENT_SECRET: SECRET, PAGERDUTY_AUTH_URL: AUTH };
    expect(await login(options({ print: true }), io)).toBe(EXIT.ok);
    expect(rec.out).toEqual([`${REFRESH}\n`]);
    expect(rec.pulumi.map((p) => p.args[1])).toEqual(["--json"]);
    expect(rec.said.join("\n")).not.toContain(REFRESH);
  });

  test("a refused code (expired or used) is exit 6; a refused client names pagerduty:clientSecret; nothing stored", async () => {
    let rec = fresh();
    tokenReply(rec, 400, { error: "invalid_grant", error_description: "The authorization code expired" });
    expect(await login(options(), fakeIo(rec, approve, STACK))).toBe(EXIT.codeRefused);
    expect(rec.said.at(-1)).toMatch(/authorization code was refused .*expired.*Nothing was stored/);
    expect(rec.pulumi.filter((p) => p.args[1] === "set")).toEqual([]);

    rec = fresh();
    tokenReply(rec, 401, { error: "invalid_client", error_description: `client_secret ${SECRET} is wrong` });
    expect(await login(options(), fakeIo(rec, approve, STACK))).toBe(EXIT.failed);
    expect(rec.said.at(-1)).toMatch(/refused the client .*check "pagerduty:clientSecret" \(env PAGERDUTY_CLIENT_SECRET\)/);
    expect(everything(rec)).not.toContain(SECRET);
    expect(rec.pulumi.filter((p) => p.args[1] === "set")).toEqual([]);
  });

  test("a grant lacking needed scopes is exit 7 naming them; nothing stored", async () => {
    const rec = fresh();
    tokenReply(rec, 200, { access_token: ACCESS, refresh_token: REFRESH, token_type: "bearer", expires_in: 3600, scope: "openid services.read" });
    expect(await login(options(), fakeIo(rec, approve, STACK))).toBe(EXIT.scope);
    expect(rec.said.at(-1)).toMatch(/granted scope lacks "services\.write", "custom_fields\.read", "audit_records\.read"/);
    expect(rec.pulumi.filter((p) => p.args[1] === "set")).toEqual([]);
  });

  test("denial, a wrong state and no code each end with their exit code before any token request", async () => {
    for (const [redirect, exit, message] of [
      [(a: URL) => ({ error: "access_denied", error_description: "The user denied", state: a.searchParams.get("state")! }), EXIT.denied, /access was denied/],
      [() => ({ code: "C0DE", state: "forged" }), EXIT.state, /state parameter does not match/],
      [(a: URL) => ({ error: "access_denied", state: `${a.searchParams.get("state")}x` }), EXIT.state, /state parameter does not match/],
      [(a: URL) => ({ state: a.searchParams.get("state")! }), EXIT.failed, /neither a code nor an error/],
    ] as const) {
      const rec = fresh();
      expect(await login(options(), fakeIo(rec, redirect, STACK))).toBe(exit);
      expect(rec.said.at(-1)).toMatch(message);
      expect(rec.tokenForm).toBeUndefined();
    }
  });

  test("nobody comes back: exit 5", async () => {
    const rec = fresh();
    expect(await login(options({ timeoutMs: 50 }), fakeIo(rec, undefined, STACK))).toBe(EXIT.timeout);
    expect(rec.said.at(-1)).toMatch(/timed out .*nothing was stored/);
  });

  test("settings are checked before anything listens: no secret, an http identity URL", async () => {
    let rec = fresh();
    expect(await login(options(), fakeIo(rec, approve, { "pagerduty:clientId": "CID" }))).toBe(EXIT.failed);
    expect(rec.said.at(-1)).toMatch(/no client secret: set PAGERDUTY_CLIENT_SECRET .*"pagerduty:clientSecret"/);
    rec = fresh();
    expect(await login(options({ authUrl: "http://identity.example" }), fakeIo(rec, approve, STACK))).toBe(EXIT.failed);
    expect(rec.said.at(-1)).toMatch(/"pagerduty:authUrl" must use https/);
    expect(rec.said.join("\n")).not.toMatch(/oauth\/authorize/);
  });

  test("no stack to store in (and no --print) fails before the browser opens", async () => {
    const rec = fresh();
    const io = fakeIo(rec, approve);
    io.pulumi = failing("error: no stack selected; please use `pulumi stack select`");
    expect(await login(options(), io)).toBe(EXIT.failed);
    expect(rec.said.at(-1)).toMatch(/cannot read the stack's config .*no stack selected.*or use --print/s);
  });
});

describe("--account NAME: the named account of pagerduty:accounts", () => {
  const EU_SECRET = "eu-client-secret-value";
  const EU = { clientId: "EUCID", clientSecret: EU_SECRET, authUrl: AUTH };
  const stackWith = (accounts: Record<string, unknown>) => ({ ...STACK, "pagerduty:accounts": JSON.stringify(accounts) });
  const reply = (rec: Recorded, id: string) =>
    tokenReply(rec, 200, { access_token: ACCESS, refresh_token: REFRESH, id_token: id, token_type: "bearer", expires_in: 3600, scope: `openid ${FULL}` });

  test("its client logs in; region, subdomain and the token are stored under its path with --path (the token --secret, on stdin)", async () => {
    // (The stack is the runner's: pulumi-runner puts --stack before the `--`.)
    const rec = fresh();
    const id = await idToken({ clientId: "EUCID", region: "eu", subdomain: "globex" });
    reply(rec, id);
    await identityService();
    expect(await login(options({ account: "eu", stack: "dev" }), fakeIo(rec, approve, stackWith({ eu: EU })))).toBe(EXIT.ok);
    // The account's client, not the top-level one.
    expect(Object.fromEntries(rec.tokenForm!)).toMatchObject({ client_id: "EUCID", client_secret: EU_SECRET });
    expect(rec.pulumi.slice(1)).toEqual([
      { args: ["config", "set", "--path", "--", "pagerduty:accounts.eu.serviceRegion", "eu"] },
      { args: ["config", "set", "--path", "--", "pagerduty:accounts.eu.subdomain", "globex"] },
      { args: ["config", "set", "--path", "--secret", "pagerduty:accounts.eu.refreshToken"], input: REFRESH },
    ]);
    expect(rec.said).toContain("Set pagerduty:accounts.eu.serviceRegion = eu (from the id_token) in stack dev.");
    expect(rec.said).toContain("Set pagerduty:accounts.eu.subdomain = globex (from the id_token) in stack dev.");
    expect(rec.said.at(-1)).toBe('Logged in. Stored the refresh token as the secret "pagerduty:accounts.eu.refreshToken" of stack dev.');
    const shown = everything(rec);
    for (const secret of [SECRET, EU_SECRET, REFRESH, ACCESS, "C0DE", id]) expect(shown).not.toContain(secret);
  });

  test("an account not yet declared: --client-id and PAGERDUTY_CLIENT_SECRET; the hint names the account's keys", async () => {
    const rec = fresh();
    reply(rec, await idToken({ clientId: "NEWCID", region: "eu", subdomain: "initech" }));
    await identityService();
    const io = fakeIo(rec, approve, {});
    io.env = { PAGERDUTY_CLIENT_SECRET: SECRET, PAGERDUTY_CLIENT_ID: "IGNORED", PAGERDUTY_AUTH_URL: "https://ignored.test" };
    expect(await login(options({ account: "initech", clientId: "NEWCID", authUrl: AUTH }), io)).toBe(EXIT.ok);
    expect(Object.fromEntries(rec.tokenForm!)).toMatchObject({ client_id: "NEWCID", client_secret: SECRET });
    expect(rec.pulumi.at(-1)).toEqual({ args: ["config", "set", "--path", "--secret", "pagerduty:accounts.initech.refreshToken"], input: REFRESH });
    expect(rec.said.at(-1)).toMatch(
      /needs "pagerduty:accounts\.initech\.clientId" and "pagerduty:accounts\.initech\.clientSecret" .*named accounts do not read the environment/,
    );
  });

  test("its settings never come from the top level or the environment (the secret aside): the messages name its keys", async () => {
    let rec = fresh();
    const io = fakeIo(rec, approve, stackWith({ eu: { clientSecret: EU_SECRET } }));
    io.env = { PAGERDUTY_CLIENT_ID: "CID" };
    expect(await login(options({ account: "eu" }), io)).toBe(EXIT.failed);
    expect(rec.said.at(-1)).toMatch(/no client id for account "eu": pass --client-id, or set "pagerduty:accounts\.eu\.clientId"/);

    rec = fresh();
    expect(await login(options({ account: "eu" }), fakeIo(rec, approve, stackWith({ eu: { clientId: "EUCID" } })))).toBe(EXIT.failed);
    expect(rec.said.at(-1)).toMatch(/no client secret for account "eu": set PAGERDUTY_CLIENT_SECRET .*"pagerduty:accounts\.eu\.clientSecret"/);

    rec = fresh();
    expect(await login(options({ account: "eu" }), fakeIo(rec, approve, stackWith({ eu: { ...EU, authUrl: "http://identity.example" } })))).toBe(EXIT.failed);
    expect(rec.said.at(-1)).toMatch(/"pagerduty:accounts\.eu\.authUrl" must use https/);
    expect(rec.said.join("\n")).not.toMatch(/oauth\/authorize/);
  });

  test('"default" is the top-level account', async () => {
    const rec = fresh();
    reply(rec, await idToken());
    await identityService();
    expect(
      await login(options({ account: "default" }), fakeIo(rec, approve, { ...STACK, "pagerduty:serviceRegion": "us", "pagerduty:subdomain": "acme" })),
    ).toBe(EXIT.ok);
    expect(rec.pulumi.slice(1)).toEqual([{ args: ["config", "set", "--secret", "pagerduty:refreshToken"], input: REFRESH }]);
  });

  test("--print writes nothing and prints the settings to set, not the secrets", async () => {
    const rec = fresh();
    reply(rec, await idToken({ clientId: "EUCID", region: "eu", subdomain: "globex" }));
    await identityService();
    expect(await login(options({ account: "eu", print: true }), fakeIo(rec, approve, stackWith({ eu: EU })))).toBe(EXIT.ok);
    expect(rec.pulumi.map((p) => p.args[1])).toEqual(["--json"]);
    expect(rec.out).toEqual([`${REFRESH}\n`]);
    expect(rec.said).toEqual(
      expect.arrayContaining([
        "Printed the refresh token on stdout. Store it as a secret: pulumi config set --path --secret pagerduty:accounts.eu.refreshToken (value on stdin)",
        "  pulumi config set --path -- pagerduty:accounts.eu.serviceRegion eu",
        "  pulumi config set --path -- pagerduty:accounts.eu.subdomain globex",
      ]),
    );
    expect(rec.said.join("\n")).not.toContain(REFRESH);
    expect(rec.said.join("\n")).not.toContain(EU_SECRET);
  });

  test("a value --path would store as a number or bool is written with --type string", () => {
    expect(loginAccount("eu").setArgs("subdomain", "1234")).toEqual([
      "config",
      "set",
      "--path",
      "--type",
      "string",
      "--",
      "pagerduty:accounts.eu.subdomain",
      "1234",
    ]);
    expect(loginAccount("eu").setArgs("subdomain", "acme-2")).toEqual(["config", "set", "--path", "--", "pagerduty:accounts.eu.subdomain", "acme-2"]);
  });
});

describe("the id_token is verified before anything is stored", () => {
  const run = async (spec: IdTokenSpec, service: Parameters<typeof identityService>[0] = {}) => {
    const rec = fresh();
    const id = await idToken(spec);
    tokenReply(rec, 200, { access_token: ACCESS, refresh_token: REFRESH, id_token: id, token_type: "bearer", expires_in: 3600, scope: `openid ${FULL}` });
    await identityService(service);
    const code = await login(options(), fakeIo(rec, approve, STACK));
    expect(rec.pulumi.filter((p) => p.args[1] === "set")).toEqual([]);
    expect(rec.out).toEqual([]);
    const shown = everything(rec);
    for (const secret of [SECRET, REFRESH, ACCESS, "C0DE", id]) expect(shown).not.toContain(secret);
    return { code, message: rec.said.at(-1)! };
  };

  test.each([
    [
      "a signature by a key the service does not publish",
      () => ({ key: stranger.privateKey }),
      {},
      /signature does not verify against the keys the identity service publishes \(https:\/\/identity\.test\/oauth\/jwks\)/,
    ],
    ["another issuer", () => ({ iss: "https://evil.test" }), {}, /issuer "https:\/\/evil\.test" is not the identity service's "https:\/\/identity\.test"/],
    [
      "an audience without the client id",
      () => ({ aud: ["https://api.test", "OTHER"], azp: "OTHER" }),
      {},
      /audience \["https:\/\/api\.test","OTHER"\] does not contain the client id "CID"/,
    ],
    ["another authorized party", () => ({ azp: "OTHER" }), {}, /issued to the client "OTHER" \("azp"\), not to "CID"/],
    ["an expired token", () => ({ exp: -3600 }), {}, /the id_token expired at \d{4}-\d\d-\d\dT/],
    [
      "a discovery document naming another issuer",
      () => ({}),
      { issuer: "https://elsewhere.test", jwks: false },
      /discovery document .* names the issuer "https:\/\/elsewhere\.test", not the identity service "https:\/\/identity\.test"/,
    ],
    [
      "no discovery document",
      () => ({}),
      { discoveryStatus: 404, jwks: false },
      /GET https:\/\/identity\.test\/\.well-known\/openid-configuration answered 404/,
    ],
  ] as Array<[string, () => IdTokenSpec, Parameters<typeof identityService>[0], RegExp]>)(
    "%s: exit 8, nothing stored",
    async (_name, spec, service, message) => {
      const { code, message: said } = await run(spec(), service);
      expect(code).toBe(EXIT.idToken);
      expect(said).toMatch(/^pagerduty-login: the id_token failed verification: /);
      expect(said).toMatch(message);
      expect(said).toMatch(/Nothing was stored\.$/);
    },
  );
});

describe("verifyIdToken", () => {
  const verifier = () => ({
    authUrl: AUTH,
    setting: "pagerduty:authUrl",
    clientId: "CID",
    transport: new Transport({}, agent()),
    retry: DEFAULT_RETRY,
    userAgent: "test",
  });

  test("a good token: the account's region, subdomain and name, and the user", async () => {
    await identityService();
    await expect(verifyIdToken(await idToken({ region: "EU", subdomain: "Globex" }), verifier())).resolves.toEqual({
      region: "eu",
      subdomain: "globex",
      accountName: "Acme Corp",
      email: "ada@acme.example",
    });
  });

  test("failures are IdTokenError (ERR_TOKEN) naming the check", async () => {
    await identityService();
    const e = await verifyIdToken(await idToken({ exp: -60 * 10 }), verifier()).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IdTokenError);
    expect(e).toMatchObject({ code: "ERR_TOKEN", check: "expired", name: "IdTokenError" });
  });

  test("an unsigned or HMAC token is refused whatever it claims", async () => {
    for (const alg of ["none", "HS256"]) {
      await identityService();
      const header = Buffer.from(JSON.stringify({ alg, typ: "JWT" })).toString("base64url");
      const now = Math.floor(Date.now() / 1000);
      const body = Buffer.from(JSON.stringify({ iss: AUTH, aud: "CID", sub: "x", exp: now + 600, region: "us" })).toString("base64url");
      const e = await verifyIdToken(`${header}.${body}.${alg === "none" ? "" : "c2ln"}`, verifier()).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(IdTokenError);
      expect((e as IdTokenError).check).toMatch(/signature|malformed/);
    }
  });

  test("a key set at a plain-http, non-loopback URL is refused before it is fetched", async () => {
    agent()
      .get(AUTH)
      .intercept({ method: "GET", path: "/.well-known/openid-configuration" })
      .reply(200, { issuer: AUTH, jwks_uri: "http://keys.example/jwks" }, { headers: { "content-type": "application/json" } });
    await expect(verifyIdToken(await idToken(), verifier())).rejects.toMatchObject({
      check: "discovery",
      message: expect.stringMatching(/key set at http:\/\/keys\.example\/jwks: it must use https/),
    });
  });

  test("a key set that is not one is a jwks failure; an unreachable one is the network error it is", async () => {
    const json = { headers: { "content-type": "application/json" } };
    const discovery = () =>
      agent()
        .get(AUTH)
        .intercept({ method: "GET", path: "/.well-known/openid-configuration" })
        .reply(200, { issuer: AUTH, jwks_uri: `${AUTH}/oauth/jwks` }, json);
    discovery();
    agent().get(AUTH).intercept({ method: "GET", path: "/oauth/jwks" }).reply(200, { keys: "none" }, json);
    await expect(verifyIdToken(await idToken(), verifier())).rejects.toMatchObject({
      check: "jwks",
      message: expect.stringMatching(/is not a JSON Web Key Set/),
    });
    discovery();
    agent()
      .get(AUTH)
      .intercept({ method: "GET", path: "/oauth/jwks" })
      .replyWithError(Object.assign(new Error("refused"), { code: "ECONNREFUSED" }))
      .times(4);
    await expect(verifyIdToken(await idToken(), { ...verifier(), retry: { ...DEFAULT_RETRY, timeScale: 0 } })).rejects.toMatchObject({ code: "ERR_NETWORK" });
  });

  test("a region this provider does not know is a claims failure", async () => {
    await identityService();
    await expect(verifyIdToken(await idToken({ region: "apac" }), verifier())).rejects.toMatchObject({
      check: "claims",
      message: expect.stringMatching(/service region "apac"/),
    });
  });
});

describe("the account the id_token names against the stack", () => {
  const reply = async (rec: Recorded, spec: IdTokenSpec) =>
    tokenReply(rec, 200, {
      access_token: ACCESS,
      refresh_token: REFRESH,
      id_token: await idToken(spec),
      token_type: "bearer",
      expires_in: 3600,
      scope: `openid ${FULL}`,
    });

  test("a different subdomain in the stack: exit 9 naming the key and both values; nothing stored", async () => {
    const rec = fresh();
    await reply(rec, { subdomain: "globex" });
    await identityService();
    expect(await login(options(), fakeIo(rec, approve, { ...STACK, "pagerduty:serviceRegion": "us", "pagerduty:subdomain": "acme" }))).toBe(
      EXIT.accountMismatch,
    );
    expect(rec.said.at(-1)).toMatch(/the id_token is for subdomain "globex", but the stack has "pagerduty:subdomain" = "acme"; nothing was stored/);
    expect(rec.pulumi.filter((p) => p.args[1] === "set")).toEqual([]);
  });

  test("a named account's region and subdomain both differ: both named", async () => {
    const rec = fresh();
    await reply(rec, { clientId: "EUCID", region: "eu", subdomain: "globex" });
    await identityService();
    const accounts = { eu: { clientId: "EUCID", clientSecret: SECRET, authUrl: AUTH, serviceRegion: "us", subdomain: "acme" } };
    expect(await login(options({ account: "eu" }), fakeIo(rec, approve, { "pagerduty:accounts": JSON.stringify(accounts) }))).toBe(EXIT.accountMismatch);
    expect(rec.said.at(-1)).toMatch(
      /the id_token is for serviceRegion "eu" and subdomain "globex", but the stack has "pagerduty:accounts\.eu\.serviceRegion" = "us" and "pagerduty:accounts\.eu\.subdomain" = "acme"/,
    );
    expect(rec.pulumi.filter((p) => p.args[1] === "set")).toEqual([]);
  });

  test("a verified token naming neither: warnings naming the keys to check, the token stored", async () => {
    const rec = fresh();
    await reply(rec, { noAccount: true });
    await identityService();
    expect(await login(options(), fakeIo(rec, approve, STACK))).toBe(EXIT.ok);
    expect(rec.said).toContain('warning: the id_token does not name the account\'s serviceRegion; check "pagerduty:serviceRegion" yourself.');
    expect(rec.said).toContain('warning: the id_token does not name the account\'s subdomain; check "pagerduty:subdomain" yourself.');
    expect(rec.pulumi.slice(1)).toEqual([{ args: ["config", "set", "--secret", "pagerduty:refreshToken"], input: REFRESH }]);
  });

  test("a setting pulumi cannot write: exit 1, and the token is not stored", async () => {
    const rec = fresh();
    await reply(rec, {});
    await identityService();
    const io = fakeIo(rec, approve, STACK);
    const pulumi = io.pulumi;
    io.pulumi = (args, input) => {
      if (!args.includes("pagerduty:serviceRegion")) return pulumi(args, input);
      rec.pulumi.push({ args: [...args] });
      return failing("error: the stack is locked")(args);
    };
    expect(await login(options(), io)).toBe(EXIT.failed);
    expect(rec.said.at(-1)).toMatch(/pulumi config set pagerduty:serviceRegion failed: error: the stack is locked; the refresh token was not stored/);
    expect(rec.pulumi.filter((p) => p.input !== undefined)).toEqual([]);
  });

  test("equal values (case aside) are said to match and are not written again", async () => {
    const rec = fresh();
    await reply(rec, {});
    await identityService();
    expect(await login(options(), fakeIo(rec, approve, { ...STACK, "pagerduty:serviceRegion": "US", "pagerduty:subdomain": "acme" }))).toBe(EXIT.ok);
    expect(rec.said).toContain('"pagerduty:serviceRegion" is already "us" (matches the id_token).');
    expect(rec.said).toContain('"pagerduty:subdomain" is already "acme" (matches the id_token).');
    expect(rec.pulumi.slice(1)).toEqual([{ args: ["config", "set", "--secret", "pagerduty:refreshToken"], input: REFRESH }]);
  });
});
