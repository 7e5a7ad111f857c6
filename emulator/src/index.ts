// Public entry: `buildEmulator` (an app that is not listening, for `app.inject` tests) and
// `startEmulator` (listening; REST and identity endpoints share one origin, EU REST under /eu).
import type { FastifyInstance } from "fastify";
import { buildApp } from "./app";
import { EmulatorCore, type EmulatorOptions } from "./core";
import { KIND_MODULES } from "./kinds";
import { EU_PREFIX } from "./region";
import { EVENTS_PATH } from "./kinds/alert/events-api";
import type { SeedSummary } from "./seed";
import type { State } from "./store";
import { generateTls, readTls, type TlsFiles, tlsDirFor } from "./tls";

export type { EmulatorOptions } from "./core";
export { EmulatorCore, DEFAULT_RATE_LIMIT } from "./core";
export { ADMIN_HEADER, ADMIN_PREFIX } from "./admin";
export { API_ERRORS, EVENT_ERRORS, OAUTH_ERRORS, ApiError, EventError, OAuthError } from "./errors";
export { type AccountSummary, defaultSeed, type SeedDocument, type SeedSummary } from "./seed";
export type { State } from "./store";
export { fetchAppToken, type ReadyCredentials, type ReadyLine } from "./client";
// The JSON of `GET /_emulator/events/{id}/trace` and of a dry run, for routing tests.
export type { Outcome, OutcomeKind, RoutingResult, Trace } from "./pcl/trace";
export { EVENT_ID_HEADER } from "./kinds/alert/process";

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
  /** REST base of US accounts (the origin); EU accounts are refused here. */
  apiUrl: string;
  /** REST base of EU accounts: `${url}/eu`. */
  euApiUrl: string;
  /** Identity (OAuth) for every region: the origin. */
  authUrl: string;
  /** Events API v2 (`${url}/v2/enqueue`; the EU events host is `${euApiUrl}/v2/enqueue`). */
  eventsUrl: string;
  adminToken: string;
  /** With `tls`: the PEM file clients should trust. */
  caFile?: string;
  seed: SeedSummary;
  app: FastifyInstance;
  core: EmulatorCore;
  close(): Promise<void>;
}

export function buildEmulator(opts: EmulatorOptions = {}, https?: { cert: string; key: string }): Emulator {
  const core = new EmulatorCore(opts, KIND_MODULES);
  const app = buildApp(core, KIND_MODULES, https);
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

async function tlsFiles(opts: EmulatorOptions): Promise<TlsFiles | undefined> {
  if (!opts.tls) return undefined;
  if (opts.tls === true) return generateTls(opts.dataFile ? tlsDirFor(opts.dataFile) : undefined);
  return readTls(opts.tls.certFile, opts.tls.keyFile);
}

export async function startEmulator(opts: EmulatorOptions = {}): Promise<RunningEmulator> {
  const tls = await tlsFiles(opts);
  const { app, core, seed, adminToken } = buildEmulator(opts, tls && { cert: tls.cert, key: tls.key });
  const host = opts.host ?? "127.0.0.1";
  try {
    await app.listen({ port: opts.port ?? 0, host });
  } catch (e) {
    tls?.cleanup();
    throw e;
  }
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : opts.port;
  const url = `${tls ? "https" : "http"}://${host.includes(":") ? `[${host}]` : host}:${port}`;
  const close = async () => {
    await app.close();
    tls?.cleanup();
  };
  return {
    url,
    apiUrl: url,
    euApiUrl: `${url}${EU_PREFIX}`,
    authUrl: url,
    eventsUrl: `${url}${EVENTS_PATH}`,
    adminToken,
    ...(tls ? { caFile: tls.caFile } : {}),
    seed,
    app,
    core,
    close,
  };
}
