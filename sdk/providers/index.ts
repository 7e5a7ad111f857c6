// Every kind's provider object by kind, the lookups' included: the module a resource's
// `__provider` names (`require("pulumi-pagerduty-dynamic/providers").<Kind>`, see sdk/provider.ts).
// State written by earlier versions names each kind's own module in this directory instead; those
// stay, as entry.ts says.
import { KIND_PROVIDERS } from "../kind-providers";
import lookup = require("./lookup");

export = Object.freeze({ ...KIND_PROVIDERS, Lookup: lookup });
