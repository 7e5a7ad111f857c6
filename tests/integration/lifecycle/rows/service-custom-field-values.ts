// ServiceCustomFieldValues: a setting of its service, over the seeded fields (tier, runbook, pci).
// A create over values set by hand takes them over; delete puts back what they held, so it is gone
// once its service is. Imported as `<service id>`.
import { definition } from "../../../../provider/resources/service-custom-field-values";
import { expectStatus, liveOf } from "../env";
import type { Env, Row } from "../row";

const path = (service: unknown) => `/services/${service}/custom_fields/values`;

/** The seeded fields this row works with. The account's other fields come and go with other rows (the ServiceCustomField row's). */
const SEEDED = new Set(["tier", "runbook", "pci"]);

const values = (env: Env, service: unknown) =>
  liveOf(env.api.get(path(service)), (body) =>
    Object.fromEntries(body.custom_fields.filter((f: { name: string }) => SEEDED.has(f.name)).map((f: { name: string; value: unknown }) => [f.name, f.value])),
  );

const set = (env: Env, service: unknown, v: Record<string, unknown>) =>
  expectStatus(env.api.put(path(service), { custom_fields: Object.entries(v).map(([name, value]) => ({ name, value })) }), 201, "PUT values");

export const row: Row<typeof definition> = {
  definition,
  create: async (env) => ({ service: await env.service(), values: { tier: "gold", runbook: "https://runbooks.example/checkout" } }),
  live: (env, r) => values(env, r.outs.service),
  handChange: { make: (env, r) => set(env, r.outs.service, { tier: null, runbook: "https://runbooks.example/by-hand" }) },
  // A field left out of `values` gets back what it held before.
  update: { inputs: async (_env, d) => ({ ...d, values: { tier: "gold", pci: true } }), live: () => ({ tier: "gold", pci: true, runbook: null }) },
  replace: { inputs: async (env, d) => ({ ...d, service: await env.service() }) },
  async handMade(env) {
    const service = await env.handService();
    await set(env, service, { tier: "silver", pci: false });
    return { id: service, declared: { service, values: { tier: "silver", pci: false } } };
  },
  adopt: { by: "create", inputs: (d) => ({ ...d, values: { tier: "gold" } }), live: { tier: "gold", pci: false } },
  import: { by: "import id" },
  // Delete puts back what the managed fields held before the first write.
  deleted: async (env, r) => expect(await row.live(env, r)).toMatchObject(r.outs.previousValues as object),
  gone: { by: "its service deleted by hand", service: (r) => r.outs.service as string },
  lag: { hidden: "service", service: (d) => d.service },
};
