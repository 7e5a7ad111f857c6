// The `account` input every resource and lookup takes: which of the stack's accounts it lives in
// (unset: the default account). Its rules live here once, for the factory, the lookups and the CLIs.
import { DEFAULT_ACCOUNT } from "../config";

type Props = Record<string, unknown>;

/** The input naming the account. */
export const ACCOUNT_INPUT = "account";

/** The account a resource's inputs or state name. */
export function accountOf(props: Props | undefined): string {
  const a = props?.[ACCOUNT_INPUT];
  return typeof a === "string" && a ? a : DEFAULT_ACCOUNT;
}

/** Props without the account: the resource's own fields, as its schema and diff know them. */
export function withoutAccount(props: Props): Props {
  if (!props || !(ACCOUNT_INPUT in props)) return props;
  const { [ACCOUNT_INPUT]: _, ...rest } = props;
  return rest;
}
