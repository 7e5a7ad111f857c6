// kernel/api-paths.ts: every id is encoded, one place builds each path.
import {
  enablementsPath,
  FIELD_DEFINITIONS,
  fieldValuesPath,
  integrationsPath,
  orchestrationActivePath,
  orchestrationPath,
  rulesConvertPath,
  rulesPath,
  servicePath,
} from "../../../../provider/kernel/api-paths";

test("paths under a service, with every id encoded", () => {
  expect(servicePath("P1/../x")).toBe("/services/P1%2F..%2Fx");
  expect(integrationsPath("P1")).toBe("/services/P1/integrations");
  expect(integrationsPath("P1", "I 2")).toBe("/services/P1/integrations/I%202");
  expect(rulesPath("P1", "R?")).toBe("/services/P1/rules/R%3F");
  expect(rulesConvertPath("P1")).toBe("/services/P1/rules/convert");
  expect(fieldValuesPath("P1")).toBe("/services/P1/custom_fields/values");
  expect(FIELD_DEFINITIONS).toBe("/services/custom_fields");
  expect(enablementsPath("P1")).toBe("/services/P1/enablements");
  expect(enablementsPath("P1", "aiops")).toBe("/services/P1/enablements/aiops");
  expect(orchestrationPath("P1/x")).toBe("/event_orchestrations/services/P1%2Fx");
  expect(orchestrationActivePath("P1")).toBe("/event_orchestrations/services/P1/active");
});
