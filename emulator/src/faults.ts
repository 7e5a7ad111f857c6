// Scripted faults per route: an error status, added latency or a dropped connection, for the
// next N matching requests and/or a fraction of them. By default a fault acts before the request is
// handled (nothing changes); with `after` it acts once the change is made and saved, the way a
// reply lost on its way back looks to a client. Fractions are applied deterministically
// (an accumulator, so 0.25 hits exactly every 4th request) to keep tests reproducible.
import { invalid } from "./errors";
import { isObject } from "./validate";

/** 404 is the transient not-found of a lagging replica (lag.ts), for a client's retry of it. */
export const FAULT_STATUSES = [404, 429, 500, 502, 503, 504] as const;

export interface FaultSpec {
  /** "METHOD /path/:param", "/path/:param" (any method) or "*"; `{param}` is accepted too. */
  route: string;
  status?: (typeof FAULT_STATUSES)[number];
  latencyMs?: number;
  drop?: boolean;
  /** Act after the request was handled: the change is made, then the reply is delayed, dropped or replaced by `status`. */
  after?: boolean;
  /** Apply to this many matching requests, then remove the fault. */
  count?: number;
  /** Apply to this fraction of matching requests (0 < f <= 1). */
  fraction?: number;
}

export interface Fault extends FaultSpec {
  id: number;
  applied: number;
}

export interface FaultAction {
  status?: number;
  latencyMs?: number;
  drop?: boolean;
  after?: boolean;
}

const normalise = (route: string): string => route.trim().replace(/\{([^}]+)\}/g, ":$1");

export function parseFault(body: unknown): FaultSpec {
  if (!isObject(body)) throw invalid("A fault is a JSON object");
  const errors: string[] = [];
  const { route, status, latencyMs, drop, after, count, fraction } = body;
  if (typeof route !== "string" || route.trim() === "") errors.push('"route" must be a string like "GET /services/:id" or "*"');
  if (status !== undefined && !(FAULT_STATUSES as readonly unknown[]).includes(status)) errors.push(`"status" must be one of ${FAULT_STATUSES.join(", ")}`);
  if (latencyMs !== undefined && !(Number.isInteger(latencyMs) && (latencyMs as number) >= 0 && (latencyMs as number) <= 60_000))
    errors.push('"latencyMs" must be an integer between 0 and 60000');
  if (drop !== undefined && typeof drop !== "boolean") errors.push('"drop" must be a boolean');
  if (after !== undefined && typeof after !== "boolean") errors.push('"after" must be a boolean');
  if (count !== undefined && !(Number.isInteger(count) && (count as number) > 0)) errors.push('"count" must be a positive integer');
  if (fraction !== undefined && !(typeof fraction === "number" && fraction > 0 && fraction <= 1)) errors.push('"fraction" must be a number in (0, 1]');
  if (status === undefined && latencyMs === undefined && !drop) errors.push('A fault needs "status", "latencyMs" or "drop": true');
  if (errors.length) throw invalid(...errors);
  return {
    route: normalise(route as string),
    status: status as FaultSpec["status"],
    latencyMs: latencyMs as number | undefined,
    drop: drop as boolean | undefined,
    after: after as boolean | undefined,
    count: count as number | undefined,
    fraction: fraction as number | undefined,
  };
}

export class Faults {
  private list: (Fault & { acc: number })[] = [];
  private nextId = 1;

  add(spec: FaultSpec): Fault {
    const f = { ...spec, id: this.nextId++, applied: 0, acc: 0 };
    this.list.push(f);
    return this.view(f);
  }

  remove(id: number): boolean {
    const before = this.list.length;
    this.list = this.list.filter((f) => f.id !== id);
    return this.list.length !== before;
  }

  clear(): void {
    this.list = [];
  }

  all(): Fault[] {
    return this.list.map((f) => this.view(f));
  }

  get size(): number {
    return this.list.length;
  }

  /** The fault to apply to this request, if any; consumes one use of it. */
  match(method: string, routeUrl: string): FaultAction | undefined {
    for (const f of this.list) {
      if (!(f.route === "*" || f.route === routeUrl || f.route === `${method} ${routeUrl}`)) continue;
      if (f.fraction !== undefined) {
        f.acc += f.fraction;
        if (f.acc < 1 - 1e-9) continue;
        f.acc -= 1;
      }
      f.applied++;
      if (f.count !== undefined && f.applied >= f.count) this.remove(f.id);
      return { status: f.status, latencyMs: f.latencyMs, drop: f.drop, after: f.after };
    }
    return undefined;
  }

  private view(f: Fault & { acc: number }): Fault {
    const { acc: _acc, ...rest } = f;
    return rest;
  }
}
