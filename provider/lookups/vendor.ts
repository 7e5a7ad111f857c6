// getVendor: a vendor of PagerDuty's catalogue by name, exact or else case-insensitive.
import { z } from "zod";
import type { Lookup } from "../operations/lookup";
import { VENDORS, VENDORS_READ } from "../kernel/api-paths";
import { defineLookup, named } from "../kernel/define";
import { listOffset } from "../kernel/pages";
import { idOf, nameArg } from "./fields";
import { byName, type Named, nameOf } from "./find";

export const definition = defineLookup({
  functionName: "getVendor",
  query: "vendor",
  description:
    "The vendor of PagerDuty's catalogue with this name (exact, else case-insensitive), e.g. for `ServiceIntegration.vendor`. " +
    "Needs the scope `vendors.read`.",
  args: z.object({ name: nameArg("The vendor's name: an exact match, else a case-insensitive one.") }).strict(),
  result: named(
    "VendorLookupResult",
    z.object({
      id: idOf("vendor"),
      name: z.string().describe("The vendor's name."),
      summary: z.string().describe("A short text the API gives the vendor."),
      description: z.string().nullable().describe("What the vendor's integration does, if the catalogue says."),
      websiteUrl: z.string().nullable().describe("The vendor's website, if the catalogue has it."),
    }),
  ),
});

interface ApiVendor extends Named {
  description?: string | null;
  website_url?: string | null;
}

export const lookup: Lookup<typeof definition> = {
  definition,
  async run({ client }, { name }) {
    const vendors = await listOffset<ApiVendor>(client, VENDORS, "vendors", VENDORS_READ, { query: name });
    const v = byName(vendors, name, "vendor", { caseInsensitive: true });
    return { id: v.id, name: nameOf(v), summary: v.summary ?? nameOf(v), description: v.description ?? null, websiteUrl: v.website_url ?? null };
  },
};
