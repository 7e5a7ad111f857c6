// The provider object of ServiceIntegration resources (see entry.ts): this module's exports are what state names.
import { entry } from "./entry";

export = entry("ServiceIntegration");
