// The provider object of the get* lookups (see entry.ts): this module's exports are what state names.
import { entry } from "./entry";

export = entry("Lookup");
