// sdk/lookup.ts: the name a lookup's resource takes in the stack, from its function and arguments.
import { lookupName } from "../../../sdk/lookup";

test("derived from plain arguments: the first names it, a hash of the others tells lookups apart", () => {
  expect(lookupName("getService", { name: "Checkout" })).toBe("getService-Checkout");
  expect(lookupName("getVendor", { name: "Datadog" })).toBe("getVendor-Datadog");
  expect(lookupName("getServiceAuditRecords", { service: "P1", since: undefined })).toBe("getServiceAuditRecords-P1");
  const a = lookupName("getServiceAuditRecords", { service: "P1", since: "2026-01-01T00:00:00Z" });
  expect(a).toMatch(/^getServiceAuditRecords-P1-[0-9a-f]{8}$/);
  expect(lookupName("getServiceAuditRecords", { service: "P1", since: "2026-01-02T00:00:00Z" })).not.toBe(a);
  expect(lookupName("getServiceIntegration", { service: "P1", name: "Alerts" })).toMatch(/^getServiceIntegration-P1-[0-9a-f]{8}$/);
  expect(lookupName("getService", { name: "a::b" })).toBe("getService-a:_b");
});

test("names of existing stacks stay as they were", () => {
  // State holds these names (as earlier versions made them): a change would make every lookup a new resource.
  expect(lookupName("getServiceAuditRecords", { service: "P1", since: "2026-01-01T00:00:00Z", until: undefined, limit: 2 })).toBe(
    "getServiceAuditRecords-P1-878928f1",
  );
  expect(lookupName("getServiceAuditRecords", { service: "P1", limit: 2, since: "2026-01-01T00:00:00Z" })).toBe("getServiceAuditRecords-P1-878928f1");
  expect(lookupName("getServiceIntegration@eu", { service: "P1", name: "Alerts" })).toBe("getServiceIntegration@eu-P1-9c6d590f");
});

test("an explicit name wins; an Output argument needs one", () => {
  expect(lookupName("getService", { name: Promise.resolve("x") }, "mine")).toBe("mine");
  expect(() => lookupName("getServiceEventRules", { service: Promise.resolve("P1") })).toThrow(
    'getServiceEventRules: "service" is not a plain value (an Output or Promise), so the lookup cannot be named after its arguments; pass a name: getServiceEventRules({...}, { name: "my-lookup" })',
  );
});
