// Objects created out of band (as a person or another tool would) for the e2e tests, through the
// emulator's REST API with the account key; the emulator's request counts; and the drift check.
import type { EmulatorProcess } from "./harness";

/** The drift check of docs/drift-and-gitops.md: refresh with the current stack config, fail (exit 7) on any change. */
export const DRIFT = ["refresh", "--preview-only", "--expect-no-changes", "--run-program"];

export async function createService(emu: EmulatorProcess, name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const r = await emu.api("POST", "/services", {
    service: { type: "service", name, escalation_policy: { id: emu.escalationPolicyId, type: "escalation_policy_reference" }, ...extra },
  });
  if (r.status !== 201) throw new Error(`creating service ${name}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.service.id;
}

/** Custom field values of a service by field name. */
export async function fieldValues(emu: EmulatorProcess, service: string): Promise<Record<string, unknown>> {
  const r = await emu.api<{ custom_fields: Array<{ name: string; value: unknown }> }>("GET", `/services/${service}/custom_fields/values`);
  if (r.status !== 200) throw new Error(`reading values of ${service}: ${r.status}`);
  return Object.fromEntries(r.body.custom_fields.map((f) => [f.name, f.value]));
}

export async function setFieldValues(emu: EmulatorProcess, service: string, values: Record<string, unknown>): Promise<void> {
  const r = await emu.api("PUT", `/services/${service}/custom_fields/values`, {
    custom_fields: Object.entries(values).map(([name, value]) => ({ name, value })),
  });
  if (r.status !== 201) throw new Error(`setting values of ${service}: ${r.status} ${JSON.stringify(r.body)}`);
}

export async function aiops(emu: EmulatorProcess, service: string): Promise<{ enabled: boolean; updated_at: string | null }> {
  const r = await emu.api("GET", `/services/${service}/enablements`);
  if (r.status !== 200) throw new Error(`reading enablements of ${service}: ${r.status}`);
  return r.body.enablements.find((e: { feature: string }) => e.feature === "aiops");
}

export async function setAiops(emu: EmulatorProcess, service: string, enabled: boolean): Promise<void> {
  const r = await emu.api("PUT", `/services/${service}/enablements/aiops`, { enablement: { enabled } });
  if (r.status !== 200) throw new Error(`setting aiops of ${service}: ${r.status}`);
}

/** Requests the emulator answered per route, e.g. `POST /services` -> 3 (admin calls are not counted). */
export async function requestCounts(emu: EmulatorProcess): Promise<Record<string, number>> {
  const stats = (await emu.admin<{ byRoute: Record<string, Record<string, number>> }>("GET", "/_emulator/stats")).body;
  return Object.fromEntries(Object.entries(stats.byRoute).map(([route, byStatus]) => [route, Object.values(byStatus).reduce((a, b) => a + b, 0)]));
}
