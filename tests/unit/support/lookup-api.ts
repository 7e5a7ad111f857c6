// For lookup unit tests: the Lookup resource's check of one lookup over this test's account context
// (support/resource-api.ts), as a preview runs it, and the scopes its requests asked for.
import { lookupProvider } from "../../../provider/operations/lookup-resource";
import type { Lookup } from "../../../provider/operations/lookup";
import type { Api } from "./resource-api";

/** The check of `lookup` alone: its arguments checked, the query run, a miss a failure. */
export function checkOf(api: Pick<Api, "ctx">, lookup: Lookup<any>) {
  const provider = lookupProvider([lookup], api.ctx);
  return (args: Record<string, unknown>) => provider.check!({}, { query: lookup.definition.query, args, __provider: "p" });
}

/** The scopes each request of this test asks for, in order (the real client still answers). */
export function scopesAsked(api: Pick<Api, "ctx">): string[][] {
  const client = api.ctx().client;
  const request = client.request.bind(client);
  const asked: string[][] = [];
  jest.spyOn(client, "request").mockImplementation((method, path, opts) => {
    asked.push(opts?.scopes ?? []);
    return request(method, path, opts);
  });
  return asked;
}
