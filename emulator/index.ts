// Public entry: `buildEmulator` (an app that is not listening, for `app.inject` tests) and
// `startEmulator` (listening; REST and identity endpoints share one origin).
import type { FastifyInstance } from "fastify";
import { buildApp } from "./app";
import { EmulatorCore, type EmulatorOptions } from "./core";
import type { SeedSummary } from "./seed";
import type { State } from "./store";

export type { EmulatorOptions } from "./core";
export { EmulatorCore, DEFAULT_RATE_LIMIT } from "./core";
export { ADMIN_HEADER, ADMIN_PREFIX } from "./admin";
export { API_ERRORS, OAUTH_ERRORS, ApiError, OAuthError } from "./errors";
export { defaultSeed, type SeedDocument, type SeedSummary } from "./seed";
export type { State } from "./store";
export { fetchAppToken, type ReadyLine } from "./client";

export interface Emulator {
  app: FastifyInstance;
  /** The live state. */
  readonly state: State;
  core: EmulatorCore;
  seed: SeedSummary;
  adminToken: string;
}

export interface RunningEmulator {
  url: string;
  apiUrl: string;
  authUrl: string;
  adminToken: string;
  seed: SeedSummary;
  app: FastifyInstance;
  core: EmulatorCore;
  close(): Promise<void>;
}

export function buildEmulator(opts: EmulatorOptions = {}): Emulator {
  const core = new EmulatorCore(opts);
  const app = buildApp(core);
  return {
    app,
    // A getter: reset and seeding replace the state object.
    get state() {
      return core.state;
    },
    core,
    seed: core.summary(),
    adminToken: core.adminToken,
  };
}

export async function startEmulator(opts: EmulatorOptions = {}): Promise<RunningEmulator> {
  const { app, core, seed, adminToken } = buildEmulator(opts);
  const host = opts.host ?? "127.0.0.1";
  await app.listen({ port: opts.port ?? 0, host });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : opts.port;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  return { url, apiUrl: url, authUrl: url, adminToken, seed, app, core, close: () => app.close() };
}
