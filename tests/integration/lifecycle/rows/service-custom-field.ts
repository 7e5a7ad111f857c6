// ServiceCustomField: display name and options update in place; a new `name` replaces it (the old
// field is deleted first, since the display name stays). Adopted by `adoptId`, imported by its id.
import { definition } from "../../../../provider/resources/service-custom-field";
import { expectStatus, liveOf } from "../env";
import type { Row } from "../row";

const path = (id: string) => `/services/custom_fields/${id}`;

export const row: Row<typeof definition> = {
  definition,
  create: async (env) => {
    const name = env.unique("env");
    return { name, displayName: name, dataType: "string", fieldType: "single_value_fixed", fieldOptions: ["prod", "staging"] };
  },
  live: (env, r) =>
    liveOf(env.api.get(`${path(r.id)}?include[]=field_options`), ({ field: f }) => ({
      name: f.name,
      display_name: f.display_name,
      options: f.field_options.map((o: { data: { value: string } }) => o.data.value).sort(),
    })),
  handChange: {
    async make(env, r) {
      await expectStatus(env.api.put(path(r.id), { field: { display_name: `${r.outs.name} by hand` } }), 200, "PUT field");
      const option = { field_option: { data: { data_type: "string", value: "qa" } } };
      await expectStatus(env.api.post(`${path(r.id)}/field_options`, option), 201, "POST field option");
    },
  },
  update: {
    inputs: async (_env, d) => ({ ...d, displayName: `${d.name} (env)`, fieldOptions: ["staging", "prod", "dev"] }),
    live: () => ({ options: ["dev", "prod", "staging"] }),
  },
  replace: { inputs: async (env, d) => ({ ...d, name: env.unique("environment") }) },
  async handMade(env) {
    const name = env.unique("owner");
    const body = { field: { name, display_name: name, data_type: "string", field_type: "single_value" } };
    const made = await expectStatus(env.api.post("/services/custom_fields", body), 201, "POST field");
    return { id: made.field.id, declared: { name, displayName: name, dataType: "string", fieldType: "single_value" } };
  },
  adopt: { by: "adoptId", inputs: (d) => ({ ...d, displayName: `${d.name} team` }), live: { display_name: expect.stringMatching(/ team$/) } },
  import: { by: "import id" },
  deleted: async (env, r) => expect(await row.live(env, r)).toBeUndefined(),
  gone: { by: "its delete" },
  lag: { hidden: "object" },
};
