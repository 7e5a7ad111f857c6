// For resource-provider unit tests: an account context around the provider's real client (API key,
// retries in milliseconds) over undici's MockAgent, made fresh for each test; providers are built
// with the real factory around it. Network disabled; every declared interceptor must be used
// (see http-mock.ts). Warnings are collected instead of printed.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { MockPool } from "undici";
import { createClient } from "../../../provider/account/client";
import { AccountContext, type ContextParts } from "../../../provider/account/context";
import { Journal } from "../../../provider/account/journal";
import { resolveSettings } from "../../../provider/config";
import { makeProvider, type Resource } from "../../../provider/operations/factory";
import { useMockAgent } from "./http-mock";
import { virtualConsistency } from "./virtual-consistency";

export const API = "https://api.test";

export interface Recorded {
  method: string;
  path: string;
  body: any;
}

export interface Api {
  pool: () => MockPool;
  calls: Recorded[];
  warnings: string[];
  /** This test's account context. */
  ctx: () => AccountContext;
  /** A resource's provider over this test's context (made by the real factory). */
  provider: (r: Resource) => Required<Omit<dynamic.ResourceProvider, "configure">>;
  /** Builds this test's context again with other parts (a journal, the stack's state, drift on). */
  reset: (parts?: Omit<ContextParts, "client">) => AccountContext;
}

/** Registers the hooks; returns the mock pool for API, the log of requests it answered and the context. */
export function useApi(): Api {
  const agent = useMockAgent();
  const calls: Recorded[] = [];
  const warnings: string[] = [];
  let ctx: AccountContext | undefined;
  let dir: string | undefined;
  const reset = (parts: Omit<ContextParts, "client"> = {}) => {
    const settings = resolveSettings(() => undefined, { PAGERDUTY_TOKEN: "test-key", PAGERDUTY_API_URL: API });
    const client = createClient({ ...settings, retry: { ...settings.retry, timeScale: 0.001 } }, { dispatcher: agent() });
    dir ??= fs.mkdtempSync(path.join(os.tmpdir(), "ppd-journal-"));
    ctx = new AccountContext({
      journal: new Journal(dir),
      warn: (m) => void warnings.push(m),
      consistency: virtualConsistency().consistency,
      ...parts,
      client,
    });
    return ctx;
  };
  beforeEach(() => {
    calls.length = 0;
    warnings.length = 0;
    reset();
  });
  afterEach(() => {
    jest.restoreAllMocks();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  const current = () => {
    if (!ctx) throw new Error("no context: use the provider inside a test");
    return ctx;
  };
  return { pool: () => agent().get(API), calls, warnings, ctx: current, provider: (r) => makeProvider(r, current), reset };
}

/** Answers one request with `data` (status 200 unless given) and records it. */
export function reply(api: Pick<Api, "pool" | "calls">, method: string, path: string, data: unknown, statusCode = 200): void {
  api
    .pool()
    .intercept({ method, path })
    .reply((opts) => {
      api.calls.push({ method, path, body: opts.body ? JSON.parse(String(opts.body)) : undefined });
      return { statusCode, data: data === undefined ? "" : JSON.stringify(data), responseOptions: { headers: { "content-type": "application/json" } } };
    });
}

export const notFound = { error: { message: "Not Found", code: 2100 } };

/** A 404 to the first look and to both second looks a 404 gets before it is believed (kernel/consistency.ts). */
export function replyGone(api: Pick<Api, "pool" | "calls">, method: string, path: string): void {
  for (let look = 0; look < 3; look++) reply(api, method, path, notFound, 404);
}

/** A resource's provider for tests of check and diff that need no account (any request fails). */
export function offline(r: Resource): ReturnType<Api["provider"]> {
  return makeProvider(r, () => {
    throw new Error("this test has no account");
  });
}
