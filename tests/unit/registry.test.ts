// kernel/registry.ts: what the CLIs read off the registry instead of switching on kinds.
import { CREATED_KINDS, RESOURCES } from "../../provider/registry";

test("every kind that creates objects says what one is and how to find one (pagerduty-recover walks the registry)", () => {
  expect([...CREATED_KINDS].sort()).toEqual(["Service", "ServiceEventRule", "ServiceIntegration"]);
  for (const kind of CREATED_KINDS) {
    expect({ kind, describe: typeof RESOURCES[kind].describe, findExisting: typeof RESOURCES[kind].findExisting }).toEqual({
      kind,
      describe: "function",
      findExisting: "function",
    });
  }
  expect(RESOURCES.Service.describe!({ name: "Checkout" })).toBe('service "Checkout"');
  expect(RESOURCES.ServiceIntegration.describe!({ service: "PSVC" })).toBe("integration of service PSVC");
  expect(RESOURCES.ServiceEventRule.describe!({ service: "PSVC" })).toBe("event rule of service PSVC");
});
