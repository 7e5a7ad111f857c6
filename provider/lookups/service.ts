// getService: the service with exactly this name.
import { z } from "zod";
import { type Lookup, LookupMiss } from "../operations/lookup";
import { defineLookup, documentedOutputs, named } from "../kernel/define";
import { definition as serviceDefinition, servicesNamed, toOutputs } from "../resources/service";
import { idOf, nameArg } from "./fields";
import { listedWith } from "./find";

export const definition = defineLookup({
  functionName: "getService",
  query: "service",
  description: "The service with exactly this name (case-sensitive); fails naming the name when there is none.",
  args: z.object({ name: nameArg("The service's name, exactly (case-sensitive).") }).strict(),
  result: named("ServiceLookupResult", documentedOutputs(serviceDefinition).extend({ id: idOf("service") })),
});

export const lookup: Lookup<typeof definition> = {
  definition,
  async run(ctx, { name }) {
    // A listing without the name while a service this process made may not be in it yet is asked again.
    const named = () => servicesNamed<Parameters<typeof toOutputs>[0]>(ctx.client, name);
    const [found] = await listedWith(ctx, "Service", named, (services) => services.length > 0);
    if (!found) {
      throw new LookupMiss(
        "name",
        `no service is named "${name}" (names match exactly, including case; if this program creates it, pass the service in dependsOn)`,
      );
    }
    return { id: found.id, ...toOutputs(found) };
  },
};
