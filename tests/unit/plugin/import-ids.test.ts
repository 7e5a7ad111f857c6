import { importedInputs, importIdFormat, locate } from "../../../plugin/import-ids";
import { inputShape } from "../../../provider/kernel/define";
import { RESOURCES } from "../../../provider/registry";

test("a child's import id names its service; later calls with that id find both", () => {
  expect(locate("ServiceIntegration", "PSVC/PINT", {})).toEqual({ id: "PINT", state: { service: "PSVC" } });
  expect(locate("ServiceIntegration", "PSVC/PINT", { service: "PSVC", name: "n" })).toEqual({ id: "PINT", state: { service: "PSVC", name: "n" } });
  expect(locate("ServiceIntegration", "PINT", { service: "PSVC" })).toEqual({ id: "PINT", state: { service: "PSVC" } });
  expect(locate("ServiceEnablement", "PSVC/aiops", {})).toEqual({ id: "PSVC/aiops", state: { service: "PSVC", feature: "aiops" } });
  expect(locate("ServiceOrchestrationCacheVariable", "PSVC/cv-1", {})).toEqual({ id: "cv-1", state: { service: "PSVC" } });
  expect(locate("Service", "PSVC", {})).toEqual({ id: "PSVC", state: {} });
});

test("an import id that cannot locate the object fails saying the format", () => {
  expect(() => locate("ServiceEventRule", "RULE", {})).toThrow(/import it by "<service id>\/<id>"/);
  expect(() => locate("ServiceEventRule", "a/b/c", {})).toThrow(/<service id>\/<id>/);
  expect(() => locate("ServiceDependency", "D", {})).toThrow(/cannot be imported/);
  expect(importIdFormat("Service")).toBe("<id>");
});

test("imported inputs are the input fields found set, nulls and objects of nulls left out", () => {
  const { definition } = RESOURCES.Service;
  const found = { name: "n", description: null, alertGroupingParameters: { type: null }, escalationPolicy: "P1", status: "active", htmlUrl: "u" };
  const { inputs, props } = importedInputs(definition, found);
  expect(inputs).toEqual({ name: "n", escalationPolicy: "P1", status: "active" });
  expect(props.__declared).toBe("name,escalationPolicy,status");
});

test("each kind's import id comes from its definition: a kind addressed by its service has a service input", () => {
  for (const [kind, r] of Object.entries(RESOURCES)) {
    const format = importIdFormat(kind);
    if (format?.startsWith("<service id>")) expect({ kind, service: "service" in inputShape(r.definition) }).toEqual({ kind, service: true });
    if (format === undefined) expect(() => locate(kind, "X", {})).toThrow(/cannot be imported/);
  }
  expect(importIdFormat("ServiceDependency")).toBeUndefined();
  expect(importIdFormat("NoSuchKind")).toBe("<id>");
});
