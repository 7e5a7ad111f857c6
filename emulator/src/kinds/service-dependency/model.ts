// Service dependencies as the store keeps them: what a deleted service or business service takes
// with it, and the reference form replies use for each side.
import type { EmulatorCore } from "../../core";
import type { DependencySide, ServiceDependencyRecord } from "../../store";

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
