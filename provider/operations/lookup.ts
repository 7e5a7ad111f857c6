// What a lookup module provides (its definition and the query behind it), and the one path by which
// both doors run a lookup: the dynamic providers' Lookup resource (lookup-resource.ts) and the
// package's functions (plugin/provider.ts invoke) differ only in where the arguments sit.
import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { z } from "zod";
import type { AccountContext } from "../account/context";
import { accountNameProblem } from "../config";
import { ConfigError, PagerDutyError } from "../errors";
import { ACCOUNT_INPUT, accountOf } from "../kernel/account-input";
import { holdsUnknown, toFailure, UNKNOWN } from "../kernel/check";
import type { TypedLookupDefinition } from "../kernel/define";

type Props = Record<string, unknown>;

/** A definition whose arguments and result are plain records: what the list of lookups holds. */
type Erased = TypedLookupDefinition<z.ZodType<Props>, z.ZodType<Props>>;

/** What a lookup module provides: its definition and the query, typed by the definition's schemas. */
export interface Lookup<D extends TypedLookupDefinition<z.ZodTypeAny, z.ZodTypeAny> = Erased> {
  definition: D;
  /** Queries the API with the arguments as the schema parsed them; a miss throws LookupMiss. */
  run(ctx: AccountContext, args: z.output<D["args"]>): Promise<z.output<D["result"]>>;
}

/** The looked-up object does not exist: a failure on the argument that named it, not an error. */
export class LookupMiss extends PagerDutyError {
  constructor(
    /** The argument, as the definition names it: `name`, `service`. */
    readonly argument: string,
    reason: string,
  ) {
    super("ERR_INPUT", reason);
    this.name = "LookupMiss";
  }
}

/** A lookup as a door received it: its arguments and the account they name (absent: the default account). */
export interface LookupCall {
  args: unknown;
  account: unknown;
}

/** What a call comes to, the same through either door. */
export type LookupOutcome =
  /** A value is not known yet (a preview before the resource it comes from exists): not queried. */
  { kind: "unknown" } | { kind: "found"; args: Props; result: Props } | { kind: "failed"; failures: dynamic.CheckFailure[] };

/**
 * Runs a call as both doors do: nothing while a value is not known yet; then the account's name and
 * the arguments are checked, and the query run. Failures name the field: an argument under `at` (the
 * Lookup resource keeps them in `args`, a function takes them at the top), the account at the top.
 * A miss fails on the argument that named it, an account the settings lack on nothing in particular.
 */
export async function performLookup(
  lookup: Lookup,
  call: LookupCall,
  contextOf: (account: string) => AccountContext,
  at: readonly string[],
): Promise<LookupOutcome> {
  if (holdsUnknown(call.args) || call.account === UNKNOWN) return { kind: "unknown" };
  const failed = (path: readonly string[], reason: string): LookupOutcome => ({ kind: "failed", failures: [toFailure(path, reason)] });
  const problem = call.account === undefined ? undefined : accountNameProblem(call.account);
  if (problem) return failed([ACCOUNT_INPUT], problem);
  const parsed = lookup.definition.args.safeParse(call.args);
  if (!parsed.success) return { kind: "failed", failures: parsed.error.issues.map((i) => toFailure([...at, ...i.path.map(String)], i.message)) };
  try {
    const result = await lookup.run(contextOf(accountOf({ [ACCOUNT_INPUT]: call.account })), parsed.data);
    return { kind: "found", args: parsed.data, result };
  } catch (e) {
    if (e instanceof LookupMiss) return failed([...at, e.argument], e.message);
    if (e instanceof ConfigError) return failed([], e.message);
    throw e;
  }
}
