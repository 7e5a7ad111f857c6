// The argument and result fields several lookups share, each described once.
import { z } from "zod";

/** The `service` argument of the lookups under a service. */
export const serviceArg = z.string().min(1, "must be a service id").describe("Id of the service.");

/** A `name` argument, described for its lookup. */
export const nameArg = (description: string) => z.string().min(1, "must not be empty").describe(description);

/** A result's `id`. */
export const idOf = (what: string) => z.string().describe(`Id of the ${what}.`);
