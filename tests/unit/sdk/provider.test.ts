// sdk/provider.ts hands the engine each kind's provider object. It cannot read the provider's
// registry (the program must not load the provider): its list (sdk/kind-providers.ts) is generated
// from the registry, and this checks what the generator wrote is what the SDK loads.
import { RESOURCES } from "../../../provider/registry";
import { providerFor } from "../../../sdk/provider";

test("every registered kind has its serialized provider, and the lookups theirs", () => {
  for (const kind of [...Object.keys(RESOURCES), "Lookup"]) expect(Object.keys(providerFor(kind)).sort()).toContain("create");
});

test("a kind the registry does not know has none", () => {
  expect(() => providerFor("Pager")).toThrow('no provider module for resource kind "Pager"');
});
