// Where a run's time went, from what bench/start-probe.js wrote of each process that served
// resources: when it started (after the run began), when it printed its port, each gRPC call the
// engine made and each HTTP request, and from those the figures the tables show.
import * as fs from "node:fs";
import * as path from "node:path";

type Role = "plugin" | "dynamic";

interface Call {
  method: string;
  t: number;
  end: number;
  error?: string;
}

interface Request {
  method: string;
  origin: string;
  path: string;
  t: number;
  end: number;
  status: number | string;
}

/** One process, its times in milliseconds since the run began. */
export interface ProcessTimeline {
  role: Role;
  pid: number;
  /** When it started, after the `pulumi` run began. */
  startedAt: number;
  /** From its start to its port (undefined: never printed one). */
  toPort?: number;
  calls: Call[];
  requests: Request[];
  /** Why the engine started it, read off the calls it made (see `purpose`). */
  purpose: string;
}

const RESOURCE_CALLS = new Set(["check", "diff", "create", "read", "update", "delete", "invoke"]);

/** The credential check's requests: the token endpoint and the REST check of a new token (or an API key's one small read). */
const isCredentialRequest = (r: Request) => r.path === "/oauth/token" || r.path === "/users/me";

/**
 * Why the engine started a process, from the calls it answered: a provider (Configure, then
 * resource calls), a schema load (GetSchema without Configure: the YAML language host's package
 * loader), or a version probe (GetPluginInfo alone).
 */
function purpose(calls: readonly Call[]): string {
  const methods = new Set(calls.map((c) => c.method));
  if (methods.has("configure")) return [...methods].some((m) => RESOURCE_CALLS.has(m)) ? "provider" : "provider, no resource call";
  if (methods.has("getSchema")) return "schema";
  if (methods.size) return [...methods].join("+");
  return "no call";
}

/** The processes of one run, from the probe's files in `dir`; `runStart`: the run's start in epoch ms. */
export function readTimelines(dir: string, runStart: number): ProcessTimeline[] {
  const out: ProcessTimeline[] = [];
  for (const f of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    const m = /^(plugin|dynamic)-(\d+)\.jsonl$/.exec(f);
    if (!m) continue;
    const events = fs
      .readFileSync(path.join(dir, f), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const start = events.find((e) => e.ev === "start");
    if (!start) continue;
    // Times in the process's own clock, moved to the run's: its origin after the run's start.
    const shift = start.origin - runStart;
    const at = (t: number) => Math.round((t + shift) * 10) / 10;
    const calls: Call[] = events.filter((e) => e.ev === "call").map((e) => ({ ...e, t: at(e.t), end: at(e.end) }));
    const requests: Request[] = events.filter((e) => e.ev === "request").map((e) => ({ ...e, t: at(e.t), end: at(e.end) }));
    const port = events.find((e) => e.ev === "port");
    calls.sort((a, b) => a.t - b.t);
    out.push({
      role: m[1] as Role,
      pid: Number(m[2]),
      startedAt: Math.round(shift),
      ...(port ? { toPort: Math.round(port.t) } : {}),
      calls,
      requests,
      purpose: purpose(calls),
    });
  }
  return out.sort((a, b) => a.startedAt - b.startedAt);
}

/** The figures of one run, in milliseconds (NaN: the run had no such thing). */
export interface Breakdown {
  /** Processes that served resources, and why each was started (`provider`, `schema`, ...). */
  processes: number;
  purposes: string[];
  /** The median time from a process's start to its port. */
  toPort: number;
  /** Configure of the provider process (the first one), and the requests of the credential check, wherever they ran. */
  configure: number;
  credentialRequests: number;
  /** The credential check's requests by path, e.g. `POST /oauth/token`. */
  credentialRoutes: string[];
  /** From the first credential request's start to the last one's end. */
  credentialCheck: number;
  getSchema: number;
  /** The first resource call (check, diff, read, ...) and what it was. */
  firstCall: number;
  firstCallMethod: string;
  /** The union of every process's time from its start to its port. */
  starting: number;
  /** The union of the time some call was in flight, over every process. */
  serving: number;
}

/** The length of the union of intervals. */
function union(intervals: Array<[number, number]>): number {
  const sorted = intervals.filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0]);
  let total = 0;
  let end = -Infinity;
  for (const [a, b] of sorted) {
    if (b <= end) continue;
    total += b - Math.max(a, end);
    end = b;
  }
  return total;
}

const median = (xs: number[]) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export function breakdown(processes: readonly ProcessTimeline[]): Breakdown {
  const provider = processes.find((p) => p.purpose.startsWith("provider")) ?? processes.find((p) => p.calls.some((c) => RESOURCE_CALLS.has(c.method)));
  const configure = provider?.calls.find((c) => c.method === "configure");
  const credential = processes.flatMap((p) => p.requests.filter(isCredentialRequest));
  const first = provider?.calls.find((c) => RESOURCE_CALLS.has(c.method));
  const schema = processes.flatMap((p) => p.calls.filter((c) => c.method === "getSchema"));
  return {
    processes: processes.length,
    purposes: processes.map((p) => p.purpose),
    toPort: median(processes.flatMap((p) => (p.toPort === undefined ? [] : [p.toPort]))),
    configure: configure ? configure.end - configure.t : NaN,
    credentialRequests: credential.length,
    credentialRoutes: credential.map((r) => `${r.method} ${r.path}`),
    credentialCheck: credential.length ? Math.max(...credential.map((r) => r.end)) - Math.min(...credential.map((r) => r.t)) : 0,
    getSchema: schema.length ? median(schema.map((c) => c.end - c.t)) : NaN,
    firstCall: first ? first.end - first.t : NaN,
    firstCallMethod: first?.method ?? "",
    starting: union(processes.map((p) => [p.startedAt, p.startedAt + (p.toPort ?? 0)])),
    serving: union(processes.flatMap((p) => p.calls.map((c) => [c.t, c.end] as [number, number]))),
  };
}
