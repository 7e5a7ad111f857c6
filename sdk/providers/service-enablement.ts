// The provider object of ServiceEnablement resources (see entry.ts): this module's exports are what state names.
import { entry } from "./entry";

export = entry("ServiceEnablement");
