// sdk/provider.ts hands the engine each kind's provider object. It cannot read the provider's
// registry (the program must not load the provider): its list (sdk/kind-providers.ts) is generated
// from the registry, and this checks what the generator wrote is what the SDK loads.
import { RESOURCES } from "../../../provider/registry";
import { providerFor, withoutPromiseStacks } from "../../../sdk/provider";

test("every registered kind has its serialized provider, and the lookups theirs", () => {
  for (const kind of [...Object.keys(RESOURCES), "Lookup"]) expect(Object.keys(providerFor(kind)).sort()).toContain("create");
});

test("a kind the registry does not know has none", () => {
  expect(() => providerFor("Pager")).toThrow('no provider module for resource kind "Pager"');
});

test("withoutPromiseStacks turns stack traces off and says what the limit was (the constructors restore it)", () => {
  const before = Error.stackTraceLimit;
  const limit = withoutPromiseStacks();
  try {
    expect(limit).toBe(before);
    expect(Error.stackTraceLimit).toBe(0);
    expect(new Error("x").stack).toBe("Error: x");
  } finally {
    Error.stackTraceLimit = limit;
  }
});

test("a resource's constructor gives the stack trace limit back, whatever it was", async () => {
  const pulumi = await import("@pulumi/pulumi");
  const { Service } = await import("../../../sdk");
  await pulumi.runtime.setMocks({ newResource: (a) => ({ id: `${a.name}-id`, state: a.inputs }), call: (a) => a.inputs }, "proj", "dev", false, "acme");
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 7;
  try {
    new Service("svc", { name: "Svc", escalationPolicy: "PEP" });
    expect(Error.stackTraceLimit).toBe(7);
  } finally {
    Error.stackTraceLimit = limit;
  }
});
