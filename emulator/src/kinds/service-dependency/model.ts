// Service dependencies as the state keeps them: what a deleted service or business service takes
// with it, and the reference form replies use for each side.
import type { EmulatorCore } from "../../core";

declare module "../../store" {
  interface KindTables {
    serviceDependencies: Record<string, ServiceDependencyRecord>;
  }
}

/** Which table a side of a dependency is in. */
export type DependencySide = { id: string; kind: "service" | "business_service" };

/** One relationship of `/service_dependencies`: `supporting` supports `dependent`. */
export interface ServiceDependencyRecord {
  id: string;
  accountId: string;
  supporting: DependencySide;
  dependent: DependencySide;
}

/** Relationships naming `id` on either side go when it is deleted. */
export function dropDependencies(core: EmulatorCore, id: string): void {
  for (const d of Object.values(core.state.serviceDependencies))
    if (d.supporting.id === id || d.dependent.id === id) delete core.state.serviceDependencies[d.id];
}

/** Replies name sides `technical_service_reference` / `business_service_reference` (the description's examples). */
export const sideRef = (s: DependencySide) => ({ id: s.id, type: s.kind === "service" ? "technical_service_reference" : "business_service_reference" });

export const renderDependency = (d: ServiceDependencyRecord) => ({
  id: d.id,
  type: "service_dependency",
  supporting_service: sideRef(d.supporting),
  dependent_service: sideRef(d.dependent),
});
