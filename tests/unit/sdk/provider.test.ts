// sdk/provider.ts lists the kinds the program hands to the engine; it cannot read the provider's
// registry (the program must not load the provider), so this holds the two lists together.
import { RESOURCES } from "../../../provider/registry";
import { providerFor } from "../../../sdk/provider";

test("every registered kind has its serialized provider, and the lookups theirs", () => {
  for (const kind of [...Object.keys(RESOURCES), "Lookup"]) expect(Object.keys(providerFor(kind)).sort()).toContain("create");
});

test("a kind the registry does not know has none", () => {
  expect(() => providerFor("Pager")).toThrow('no provider module for resource kind "Pager"');
});
