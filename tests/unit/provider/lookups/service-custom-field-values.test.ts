import { lookup } from "../../../../provider/lookups/service-custom-field-values";
import { reply, useApi } from "../../support/resource-api";

const api = useApi();

test("custom field values by name, with the fields", async () => {
  reply(api, "GET", "/services/P1/custom_fields/values", {
    custom_fields: [
      { id: "F1", name: "tier", display_name: "Tier", data_type: "string", field_type: "single_value", value: "gold" },
      { id: "F2", name: "pci" },
    ],
  });
  await expect(lookup.run(api.ctx(), { service: "P1" })).resolves.toEqual({
    values: { tier: "gold", pci: null },
    fields: [
      { id: "F1", name: "tier", displayName: "Tier", dataType: "string", fieldType: "single_value", value: "gold" },
      { id: "F2", name: "pci", value: null },
    ],
  });
});
