// For resource-provider unit tests: the provider's real client (API key, retries in milliseconds)
// over undici's MockAgent, installed as the runtime's client. Network disabled; every declared
// interceptor must be used (see http-mock.ts).
import type { MockPool } from "undici";
import { resolveSettings } from "../../provider/config";
import * as runtime from "../../provider/runtime";
import { useMockAgent } from "./http-mock";

export const API = "https://api.test";

export interface Recorded {
  method: string;
  path: string;
  body: any;
}

/** Registers the hooks; returns the mock pool for API and the log of requests it answered. */
export function useApi(): { pool: () => MockPool; calls: Recorded[] } {
  const agent = useMockAgent();
  const calls: Recorded[] = [];
  beforeEach(() => {
    calls.length = 0;
    const settings = resolveSettings(() => undefined, { PAGERDUTY_TOKEN: "test-key", PAGERDUTY_API_URL: API });
    const client = runtime.createClient({ ...settings, retry: { ...settings.retry, timeScale: 0.001 } }, { dispatcher: agent() });
    jest.spyOn(runtime, "getClient").mockReturnValue(client);
  });
  afterEach(() => jest.restoreAllMocks());
  return { pool: () => agent().get(API), calls };
}

/** Answers one request with `data` (status 200 unless given) and records it. */
export function reply(api: ReturnType<typeof useApi>, method: string, path: string, data: unknown, statusCode = 200): void {
  api
    .pool()
    .intercept({ method, path })
    .reply((opts) => {
      api.calls.push({ method, path, body: opts.body ? JSON.parse(String(opts.body)) : undefined });
      return { statusCode, data: data === undefined ? "" : JSON.stringify(data), responseOptions: { headers: { "content-type": "application/json" } } };
    });
}

export const notFound = { error: { message: "Not Found", code: 2100 } };
