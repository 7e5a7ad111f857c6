// pagerduty-login's flow with its edges replaced: the token endpoint is undici's MockAgent, `pulumi`
// is a recording function, and the "browser" is an HTTP request to the real loopback listener
// carrying what the identity service would put in the redirect.
import { Agent, request } from "undici";
import { EXIT, login, parseLoginArgs, USAGE, type LoginIo, type LoginOptions } from "../../provider/cli/login";
import { useMockAgent } from "./http-mock";

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
      rec.pulumi.push({ args, ...(input !== undefined ? { input } : {}) });
      if (args[0] === "config" && args[1] === "--json") {
        const json = Object.fromEntries(Object.entries(stack).map(([k, value]) => [k, { value, secret: k.endsWith("Secret") }]));
        return { status: 0, stdout: JSON.stringify(json), stderr: "" };
      }
      return { status: 0, stdout: "", stderr: "" };
    },
    openBrowser: (url) => {
      if (!redirect) return;
      const authorize = new URL(url);
      const back = new URL(authorize.searchParams.get("redirect_uri")!);
      for (const [k, v] of Object.entries(redirect(authorize))) back.searchParams.set(k, v);
      void request(back, { dispatcher: browser }).then((r) => r.body.dump(), () => undefined);
    },
    dispatcher: agent(),
  };
}

const STACK = { "pagerduty:clientId": "CID", "pagerduty:clientSecret": SECRET, "pagerduty:authUrl": AUTH };
const options = (o: Partial<LoginOptions> = {}): LoginOptions => ({ port: 0, print: false, browser: true, timeoutMs: 30_000, ...o });
const approve = (authorize: URL) => ({ code: "C0DE", state: authorize.searchParams.get("state")! });

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
const everything = (rec: Recorded) => [...rec.said, ...rec.out, ...rec.pulumi.map((p) => p.args.join(" "))].join("\n");

describe("parseLoginArgs", () => {
  test("defaults and every flag", () => {
    expect(parseLoginArgs([])).toMatchObject({ port: 0, print: false, browser: true, timeoutMs: 300_000, help: false, version: false });
    expect(
      parseLoginArgs(["--client-id", "C", "--auth-url=https://id.example", "--scopes", "a b", "--port", "8765", "--stack", "dev", "--print", "--no-browser", "--timeout", "9"]),
    ).toEqual({ clientId: "C", authUrl: "https://id.example", scopes: "a b", port: 8765, stack: "dev", print: true, browser: false, timeoutMs: 9000, help: false, version: false });
    expect(parseLoginArgs(["-h"]).help).toBe(true);
    expect(parseLoginArgs(["--version"]).version).toBe(true);
  });
  test("bad input is a usage error (exit 2) naming the flag", () => {
    for (const [argv, message] of [
      [["--port", "http"], /--port must be an integer from 0 to 65535/],
      [["--port", "70000"], /--port must be an integer/],
      [["--timeout", "0"], /--timeout must be an integer from 1/],
      [["--client-secret", "x"], /Unknown option '--client-secret'/],
      [["--stack", " "], /--stack needs a value/],
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
    for (const s of ["--client-id", "--auth-url", "--scopes", "--port", "--stack", "--print", "--no-browser", "--timeout", "--help", "--version", "PAGERDUTY_CLIENT_SECRET", "Exit codes"]) {
      expect(USAGE).toContain(s);
    }
  });
});

describe("login", () => {
  test("approved: PKCE + state on the URL, the secret only in the token form, the token stored through stdin", async () => {
    const rec = fresh();
    let authorize: URL | undefined;
    tokenReply(rec, 200, { access_token: ACCESS, refresh_token: REFRESH, token_type: "bearer", expires_in: 3600, scope: `openid ${FULL}` });
    const code = await login(options(), fakeIo(rec, (a) => ((authorize = a), approve(a)), STACK));
    expect(code).toBe(EXIT.ok);
    expect(authorize!.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize!.searchParams.get("scope")).toBe(FULL);
    expect(authorize!.toString()).not.toContain(SECRET);
    expect(Object.fromEntries(rec.tokenForm!)).toMatchObject({ grant_type: "authorization_code", code: "C0DE", client_id: "CID", client_secret: SECRET, redirect_uri: authorize!.searchParams.get("redirect_uri") });
    expect(rec.tokenForm!.get("code_verifier")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(rec.pulumi.at(-1)).toEqual({ args: ["config", "set", "--secret", "pagerduty:refreshToken"], input: REFRESH });
    expect(rec.out).toEqual([]);
    const shown = everything(rec);
    for (const secret of [SECRET, REFRESH, ACCESS, "C0DE"]) expect(shown).not.toContain(secret);
  });

  test("--print: the token on stdout only, nothing stored, no stack needed", async () => {
    const rec = fresh();
    tokenReply(rec, 200, { access_token: ACCESS, refresh_token: REFRESH, token_type: "bearer", expires_in: 3600, scope: `openid ${FULL}` });
    const io = fakeIo(rec, approve);
    io.pulumi = (args) => (rec.pulumi.push({ args }), { status: 1, stdout: "", stderr: "error: no Pulumi.yaml project file found" });
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
    expect(await login(options(), fakeIo(rec, approve, STACK))).toBe(EXIT.error);
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
      [(a: URL) => ({ state: a.searchParams.get("state")! }), EXIT.error, /neither a code nor an error/],
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
    expect(await login(options(), fakeIo(rec, approve, { "pagerduty:clientId": "CID" }))).toBe(EXIT.error);
    expect(rec.said.at(-1)).toMatch(/no client secret: set PAGERDUTY_CLIENT_SECRET .*"pagerduty:clientSecret"/);
    rec = fresh();
    expect(await login(options({ authUrl: "http://identity.example" }), fakeIo(rec, approve, STACK))).toBe(EXIT.error);
    expect(rec.said.at(-1)).toMatch(/"pagerduty:authUrl" must use https/);
    expect(rec.said.join("\n")).not.toMatch(/oauth\/authorize/);
  });

  test("no stack to store in (and no --print) fails before the browser opens", async () => {
    const rec = fresh();
    const io = fakeIo(rec, approve);
    io.pulumi = () => ({ status: 255, stdout: "", stderr: "error: no stack selected; please use `pulumi stack select`" });
    expect(await login(options(), io)).toBe(EXIT.error);
    expect(rec.said.at(-1)).toMatch(/cannot read the stack's config .*no stack selected.*or use --print/s);
  });
});
