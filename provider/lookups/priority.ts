// getPriority: the account's priority with exactly this name (every priority is read: a short list).
import { z } from "zod";
import type { Lookup } from "../operations/lookup";
import { PRIORITIES, PRIORITIES_READ } from "../kernel/api-paths";
import { defineLookup, named } from "../kernel/define";
import { listOffset } from "../kernel/pages";
import { idOf, nameArg } from "./fields";
import { byName, type Named, nameOf } from "./find";

export const definition = defineLookup({
  functionName: "getPriority",
  query: "priority",
  description: "The account's priority with exactly this name (e.g. \"P1\"), for an event rule's `actions.priority.value`. Needs the scope `priorities.read`.",
  args: z.object({ name: nameArg('The priority\'s name, exactly (e.g. "P1").') }).strict(),
  result: named(
    "PriorityLookupResult",
    z.object({
      id: idOf("priority"),
      name: z.string().describe('The priority\'s name, e.g. "P1".'),
      description: z.string().nullable().describe("The priority's description, if it has one."),
      summary: z.string().describe("A short text the API gives the priority."),
    }),
  ),
});

interface ApiPriority extends Named {
  description?: string | null;
}

export const lookup: Lookup<typeof definition> = {
  definition,
  async run({ client }, { name }) {
    const p = byName(await listOffset<ApiPriority>(client, PRIORITIES, "priorities", PRIORITIES_READ), name, "priority");
    return { id: p.id, name: nameOf(p), description: p.description ?? null, summary: p.summary ?? nameOf(p) };
  },
};
