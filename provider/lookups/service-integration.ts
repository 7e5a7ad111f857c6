// getServiceIntegration: a service's integration by name, never with its routing key (a secret,
// and a lookup's result is stored in plain text).
import { z } from "zod";
import type { Lookup } from "../operations/lookup";
import { READ, servicePath } from "../kernel/api-paths";
import { defineLookup, documentedOutputs, named } from "../kernel/define";
import { type ApiIntegration, definition as integrationDefinition, toOutputs } from "../resources/service-integration";
import { idOf, nameArg, serviceArg } from "./fields";
import { DEPENDS_ON_HINT, listedByName, type Named, underService } from "./find";

export const definition = defineLookup({
  functionName: "getServiceIntegration",
  query: "serviceIntegration",
  description: "The integration of a service with exactly this name (without its routing key, a secret).",
  args: z.object({ service: serviceArg, name: nameArg("The integration's name, exactly (case-sensitive).") }).strict(),
  result: named(
    "ServiceIntegrationLookupResult",
    documentedOutputs(integrationDefinition)
      .omit({ integrationKey: true })
      .extend({ id: idOf("integration") }),
  ),
});

export const lookup: Lookup<typeof definition> = {
  definition,
  async run(ctx, { service, name }) {
    const integrations = async () => {
      const reply = await underService(ctx, service, () =>
        ctx.client.request<{ service: { integrations?: Array<ApiIntegration & Named> } }>("GET", servicePath(service), {
          query: { include: ["integrations"] },
          scopes: READ,
        }),
      );
      return reply.service.integrations ?? [];
    };
    const i = await listedByName(ctx, "ServiceIntegration", integrations, name, "integration of the service", { hint: DEPENDS_ON_HINT });
    const { integrationKey: _secret, ...rest } = toOutputs(i, service);
    return { id: i.id, ...rest };
  },
};
