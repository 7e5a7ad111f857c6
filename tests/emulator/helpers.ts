// Test helpers: drive a listening emulator over HTTP the way an outside client would. (app.inject
// works too since the root package.json pins light-my-request's cookie to 1.x: see inject.test.ts.)
import { ADMIN_HEADER, type EmulatorOptions, fetchAppToken, type RunningEmulator, startEmulator } from "../../emulator/src";

export const ACCEPT = "application/vnd.pagerduty+json;version=2";

export type Emu = RunningEmulator;

export interface Res {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export async function send(url: string, init: RequestInit = {}): Promise<Res> {
  const r = await fetch(url, { redirect: "manual", ...init });
  const text = await r.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: r.status, headers: r.headers, text, json };
}

export const start = (opts: EmulatorOptions = {}): Promise<Emu> => startEmulator({ port: 0, ...opts });

/**
 * The fields of Object's prototype in this test's realm and in jest's outer one (jest's
 * structuredClone makes that realm's objects): one that gains a field was polluted through a route.
 */
export const prototypeFields = (): string[][] =>
  [Object.prototype, Object.getPrototypeOf(structuredClone({}))].map((p) => Object.getOwnPropertyNames(p).sort());

export async function form(e: Emu, path: string, fields: Record<string, string | undefined>, headers: Record<string, string> = {}): Promise<Res> {
  const body = new URLSearchParams(Object.entries(fields).filter((x): x is [string, string] => x[1] !== undefined)).toString();
  return send(e.url + path, { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded", ...headers } });
}

export const selector = (account: { region: string; subdomain: string }) => `as_account-${account.region}.${account.subdomain}`;

/** An app token of the seeded Scoped app via client_credentials. */
export const appToken = (e: Emu, scopes?: string): Promise<string> => fetchAppToken({ authUrl: e.authUrl, ...e.seed }, scopes);

export interface Client {
  get(path: string, headers?: Record<string, string>): Promise<Res>;
  post(path: string, body?: unknown): Promise<Res>;
  put(path: string, body?: unknown, headers?: Record<string, string>): Promise<Res>;
  delete(path: string): Promise<Res>;
}

/** REST calls with `Authorization: <auth>` (e.g. "Bearer x" or "Token token=y") to `base` (default: the US base). */
export function client(e: Emu, auth: string, base = e.apiUrl): Client {
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    send(base + path, {
      method,
      headers: { authorization: auth, accept: ACCEPT, ...(body !== undefined ? { "content-type": "application/json" } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return {
    get: (path, headers) => call("GET", path, undefined, headers),
    post: (path, body) => call("POST", path, body),
    put: (path, body, headers) => call("PUT", path, body, headers),
    delete: (path) => call("DELETE", path),
  };
}

/** REST calls to the EU base (`/eu`), where EU accounts' credentials work. */
export const euClient = (e: Emu, auth: string): Client => client(e, auth, e.euApiUrl);

/** An app token of the seed's EU Scoped app (the `eu` summary) via client_credentials. */
export const euAppToken = (e: Emu, scopes?: string): Promise<string> => fetchAppToken({ authUrl: e.authUrl, ...e.seed.eu! }, scopes);

export const bearer = async (e: Emu, scopes?: string): Promise<Client> => client(e, `Bearer ${await appToken(e, scopes)}`);

/** A started emulator and a client with every scope of the seeded app. */
export async function startWithClient(opts: EmulatorOptions = {}): Promise<{ e: Emu; api: Client }> {
  const e = await start(opts);
  return { e, api: await bearer(e) };
}

export function admin(e: Emu, method: string, path: string, body?: unknown): Promise<Res> {
  return send(`${e.url}/_emulator${path}`, {
    method,
    headers: { [ADMIN_HEADER]: e.adminToken, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

export interface Registry {
  accounts: { id: string; subdomain: string; region: string }[];
  users: { id: string; email: string; password: string; role: string; account: string }[];
  apps: {
    id: string;
    name: string;
    kind: string;
    confidential: boolean;
    clientId: string;
    clientSecret: string;
    scopes: string[];
    redirectUris: string[];
    account: string;
  }[];
  apiKeys: { id: string; token: string; kind: string; readOnly: boolean; account: string; userId?: string }[];
  escalationPolicies: { id: string; account: string }[];
  customFields: { id: string; name: string; account: string }[];
}

export async function registry(e: Emu): Promise<Registry> {
  return (await admin(e, "GET", "/registry")).json;
}

let counter = 0;
export const serviceBody = (e: Emu, extra: Record<string, unknown> = {}) => ({
  service: {
    type: "service",
    name: `svc-${++counter}-${Math.random().toString(36).slice(2, 8)}`,
    escalation_policy: { id: e.seed.escalationPolicyId, type: "escalation_policy_reference" },
    ...extra,
  },
});

/** Create a service and return its id. */
export async function createService(e: Emu, api: Client, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await api.post("/services", serviceBody(e, extra));
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.json.service.id;
}

/** An Events API v2 event (`POST /v2/enqueue`; `base` "/eu" for the EU events host). */
export function sendEvent(e: Emu, body: unknown, base = ""): Promise<Res> {
  return send(`${e.url}${base}/v2/enqueue`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** A service with an Events API v2 integration: its id and the integration's routing key. */
export async function serviceWithKey(e: Emu, api: Client, extra: Record<string, unknown> = {}): Promise<{ id: string; key: string }> {
  const id = await createService(e, api, extra);
  const res = await api.post(`/services/${id}/integrations`, { integration: { type: "events_api_v2_inbound_integration" } });
  if (res.status !== 201) throw new Error(`integration failed: ${res.status} ${res.text}`);
  return { id, key: res.json.integration.integration_key };
}

/** A trigger event for `key` (a `critical` one unless `payload` says otherwise). */
export const trigger = (key: string, extra: Record<string, unknown> = {}, payload: Record<string, unknown> = {}) => ({
  routing_key: key,
  event_action: "trigger",
  payload: { summary: "disk full on db-1", source: "db-1", severity: "critical", ...payload },
  ...extra,
});
