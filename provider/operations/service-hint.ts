// A child resource (integration, event rule, custom field values, enablement, conversion) names its
// account itself: the account of its service is not guessed from the service's id. A child declared
// without `account` under a service of a named account therefore asks the default account for the
// service and gets a 404; a bare "404 Service P3LKWGM not found" after the service was just made
// blames nothing the user can see. These say which account was asked and what to set.
import { accountLabel } from "../account/refusal";
import { isNotFound, PagerDutyError } from "../errors";

/** The account a context serves, as its resources name it. */
interface Asked {
  account: string;
}

/** Why a child's service may not be found in the account `ctx` serves, and what to set. */
export function serviceNotFoundHint(ctx: Asked, serviceId: string): string {
  return (
    `service ${serviceId} is not in ${accountLabel(ctx.account)}, the account this resource names. ` +
    "If the service lives in another account, give this resource that account too (`account`, as on its service): " +
    "a child resource does not take its account from its service"
  );
}

/**
 * `e` with the hint when it is a 404 of a request under the child's service (the create's POST, a
 * read or write of the child): a PagerDutyError with the same code and `e` as its cause. Any other
 * error is returned as it is.
 */
export function withServiceNotFoundHint(ctx: Asked, serviceId: string, e: unknown): unknown {
  if (!isNotFound(e)) return e;
  return new PagerDutyError("ERR_NOT_FOUND", `${(e as Error).message}: ${serviceNotFoundHint(ctx, serviceId)}`, { cause: e });
}
