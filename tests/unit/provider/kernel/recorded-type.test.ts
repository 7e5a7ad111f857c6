// provider/kernel/recorded-type.ts: the types the state records for this package's resources through
// either door, and back; each door's config terms.
import { doorOfType, ownId, recordedKind, recordedType } from "../../../../provider/kernel/recorded-type";

test("a kind's recorded type names it; other types name no kind", () => {
  expect(recordedType("ServiceIntegration")).toBe("pulumi-nodejs:dynamic/pagerduty:ServiceIntegration");
  expect(recordedKind(recordedType("ServiceEnablement"))).toBe("ServiceEnablement");
  expect(recordedKind("pulumi-nodejs:dynamic/other:Service")).toBeUndefined();
  expect(recordedKind("pulumi:pulumi:Stack")).toBeUndefined();
});

test("the package's types name the same kinds; @pulumi/pagerduty's and the provider resource's do not", () => {
  expect(recordedType("Service", "package")).toBe("pagerduty-dynamic:index:Service");
  expect(recordedKind("pagerduty-dynamic:index:ServiceEventRule")).toBe("ServiceEventRule");
  expect(doorOfType("pagerduty-dynamic:index:Service")).toBe("package");
  expect(doorOfType("pulumi-nodejs:dynamic/pagerduty:Service")).toBe("dynamic");
  expect(recordedKind("pagerduty:index:Service")).toBeUndefined();
  expect(recordedKind("pulumi:providers:pagerduty-dynamic")).toBeUndefined();
  expect(doorOfType("pulumi:providers:pagerduty-dynamic")).toBeUndefined();
});

test("an id imported under its service stands for the object's own id", () => {
  expect(ownId("PSVC123/PINT456")).toBe("PINT456");
  expect(ownId("PINT456")).toBe("PINT456");
});
