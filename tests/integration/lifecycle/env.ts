// What a row is given to reach the account (row.ts, `Env`): the REST API as a person, and services
// declared by the program, made through the stage's providers.
import type { Env } from "./row";
import type { Stage } from "./stage";

let made = 0;

/** The REST reply's body when it has `status`; otherwise an error naming the call and the reply. */
export async function expectStatus<T = any>(call: Promise<{ status: number; json: any; text: string }>, status: number, what: string): Promise<T> {
  const res = await call;
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${res.text}`);
  return res.json as T;
}

export function envOf(stage: Stage, tag: string): Env {
  const unique = (label: string) => `${label}_${tag}_${++made}`;
  return {
    api: stage.api,
    warnings: stage.warnings,
    policy: stage.emu.seed.escalationPolicyId,
    unique,
    async service() {
      const name = unique("service");
      return (await stage.engine.create("Service", name, { name, escalationPolicy: stage.emu.seed.escalationPolicyId })).id;
    },
    async handService() {
      const body = { service: { name: unique("by_hand"), escalation_policy: { id: stage.emu.seed.escalationPolicyId, type: "escalation_policy_reference" } } };
      return (await expectStatus(stage.api.post("/services", body), 201, "POST /services")).service.id;
    },
  };
}

/** What a REST read shows (`pick` of its body), or undefined when it answers 404. */
export async function liveOf(call: Promise<{ status: number; json: any; text: string }>, pick: (body: any) => Record<string, unknown> | undefined) {
  const res = await call;
  if (res.status === 404) return undefined;
  if (res.status !== 200) throw new Error(`reading the live object: ${res.status} ${res.text}`);
  return pick(res.json);
}
