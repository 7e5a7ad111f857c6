// The provider object of Service resources (see entry.ts): this module's exports are what state names.
import { entry } from "./entry";

export = entry("Service");
