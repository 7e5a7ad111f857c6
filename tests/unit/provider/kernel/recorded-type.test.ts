// provider/kernel/recorded-type.ts: the type the state records for this package's resources, and back.
import { recordedKind, recordedType } from "../../../../provider/kernel/recorded-type";

test("a kind's recorded type names it; other types name no kind", () => {
  expect(recordedType("ServiceIntegration")).toBe("pulumi-nodejs:dynamic/pagerduty:ServiceIntegration");
  expect(recordedKind(recordedType("ServiceEnablement"))).toBe("ServiceEnablement");
  expect(recordedKind("pulumi-nodejs:dynamic/other:Service")).toBeUndefined();
  expect(recordedKind("pulumi:pulumi:Stack")).toBeUndefined();
});
