// Moving state written by earlier versions to the current `__provider`. The dynamic-provider host
// puts the program's serialized provider into a resource's inputs at every check, but into its
// outputs only at create, update and read, from the outputs it had: an `up` that changes nothing
// keeps the old provider in the outputs for good (earlier versions' was 2.5 KB, the current one a
// single `require` line). So when only `__provider` differs, diff reports an update, and that update
// returns the outputs as they are, without a request; the host then stores the current provider.
import type * as dynamic from "@pulumi/pulumi/dynamic";

const PROVIDER = "__provider";

type Props = Record<string, unknown> | undefined;

/** The provider whose diff also reports a stale `__provider`, updated in place without a request. */
export function upgradingProvider<P extends dynamic.ResourceProvider>(provider: P): P {
  const { diff, update } = provider;
  if (!diff || !update) return provider;
  // Resources this process's diff reported for their provider alone (ids are per account).
  const stale = new Set<string>();
  const key = (id: string, props: Props) => JSON.stringify([props?.account ?? null, id]);
  return {
    ...provider,
    diff: async (id: string, olds: Props, news: Props) => {
      const result = await diff.call(provider, id, olds, news);
      const old = olds?.[PROVIDER];
      const current = news?.[PROVIDER];
      if (result.changes !== false || typeof old !== "string" || typeof current !== "string" || old === current) return result;
      stale.add(key(id, olds));
      return { ...result, changes: true };
    },
    update: async (id: string, olds: Props, news: Props) => {
      if (stale.delete(key(id, olds))) return { outs: olds };
      return update.call(provider, id, olds, news);
    },
  };
}
