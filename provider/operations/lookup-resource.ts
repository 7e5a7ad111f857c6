// pagerduty:Lookup — the resource behind the SDK's get* functions.
//
// Dynamic providers cannot serve invokes, and the SDK never does HTTP, so a lookup is a small
// resource whose provider performs the GET. Freshness without perpetual diffs: `check` (run on
// every preview and up) performs the query and puts the result into the checked inputs; `diff`
// reports a change only when that result differs from the one in state, and create/update just
// record it. `read` returns the state unchanged, so `refresh` never reports a lookup as drifted;
// the next preview or up queries again. Nothing remote is ever created, changed or deleted.
import { createHash } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { AccountContext } from "../account/context";
import { PagerDutyError } from "../errors";
import { ACCOUNT_INPUT, accountOf, withoutAccount } from "../kernel/account-input";
import { toFailure, userInputs } from "../kernel/check";
import { type Lookup, performLookup } from "./lookup";

type Props = Record<string, unknown>;

/** What the state records of a lookup: the query, its arguments and what it found. */
interface Recorded {
  query: string;
  args: Props;
  result?: Props;
}

/** The account a lookup names, as its outputs keep it (absent: the default account). */
const accountField = (news: Props) => (typeof news?.[ACCOUNT_INPUT] === "string" ? { [ACCOUNT_INPUT]: news[ACCOUNT_INPUT] } : {});

/** Where the Lookup resource finds a lookup by its `query`, and every query it knows (for a miss's message). */
export interface LookupResolver {
  byQuery(query: string): Lookup | undefined;
  queries(): readonly string[];
}

/** A resolver over a list of lookups (every module in it already loaded). */
const resolverOf = (lookups: readonly Lookup[]): LookupResolver => {
  const byQuery = new Map(lookups.map((l) => [l.definition.query, l]));
  return { byQuery: (query) => byQuery.get(query), queries: () => [...byQuery.keys()] };
};

/**
 * The engine's provider for the Lookup resource of the lookups `source` resolves by their `query`
 * (the registry's resolver loads a lookup's module on its first call, and no other); `contextOf`
 * gives the context of the account a lookup names.
 */
export function lookupProvider(source: readonly Lookup[] | LookupResolver, contextOf: (account: string) => AccountContext): dynamic.ResourceProvider {
  const resolver = Array.isArray(source) ? resolverOf(source) : (source as LookupResolver);
  const lookupOf = (query: unknown) => (typeof query === "string" ? resolver.byQuery(query) : undefined);

  /** Outputs: what check found (queried here only if check could not, e.g. for an older state). */
  const record = async (news: Props): Promise<Props> => {
    const { query, args, result } = userInputs(withoutAccount(news)) as unknown as Recorded;
    const lookup = lookupOf(query);
    if (!lookup) throw new PagerDutyError("ERR_INPUT", `no lookup "${query}": the installed pulumi-pagerduty-dynamic is older than the program's`);
    return { query, args, result: result ?? (await lookup.run(contextOf(accountOf(news)), args)), ...accountField(news) };
  };

  return {
    async check(_olds, news) {
      const lookup = lookupOf(news?.query);
      if (!lookup) {
        const known = resolver.queries().join(", ");
        return { inputs: news, failures: [toFailure(["query"], `no lookup ${JSON.stringify(news?.query)} (this version has ${known})`)] };
      }
      const outcome = await performLookup(lookup, { args: news.args, account: news[ACCOUNT_INPUT] }, contextOf, ["args"]);
      if (outcome.kind === "unknown") return { inputs: news }; // queried once the arguments are known
      if (outcome.kind === "failed") return { inputs: news, failures: outcome.failures };
      return { inputs: { ...withoutAccount(news), args: outcome.args, ...accountField(news), result: outcome.result } };
    },

    async diff(_id, olds, news) {
      const changed = ["query", "args", "result"].some((k) => !isDeepStrictEqual(olds[k], news[k])) || accountOf(olds) !== accountOf(news);
      return { changes: changed, replaces: [], deleteBeforeReplace: false };
    },

    async create(news) {
      const digest = createHash("sha256")
        .update(JSON.stringify([news.query, news.args, accountOf(news)]))
        .digest("hex")
        .slice(0, 16);
      return { id: `${news.query}:${digest}`, outs: await record(news) };
    },

    async read(id, props) {
      return { id, props };
    },

    async update(_id, _olds, news) {
      return { outs: await record(news) };
    },

    async delete() {
      // Nothing remote belongs to a lookup.
    },
  };
}
