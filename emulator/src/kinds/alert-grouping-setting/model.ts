// Which alert grouping setting a service belongs to, and what that does to the service. A service
// belongs to at most one setting: PagerDuty's Terraform provider checks this before every create
// and update of a setting (`validateServicesReuse`, listing the settings by `service_ids[]`) and
// explains a 400 of the create by it. Settings hold the membership; services never copy it.
import type { EmulatorCore } from "../../core";
import { reference } from "../../http";

declare module "../../store" {
  interface KindTables {
    alertGroupingSettings: Record<string, AlertGroupingSettingRecord>;
  }
}

/** An alert grouping setting (`/alert_grouping_settings`): one grouping configuration for its services. */
export interface AlertGroupingSettingRecord {
  id: string;
  accountId: string;
  name: string | null;
  description: string | null;
  type: string;
  /** As validated for `type` (only that type's keys). */
  config: Record<string, unknown>;
  /** Service ids, in the order given; a service belongs to at most one setting. */
  serviceIds: string[];
  created_at: string;
  updated_at: string;
}

/** The setting `serviceId` belongs to, if any. */
export function settingOf(core: EmulatorCore, serviceId: string): AlertGroupingSettingRecord | undefined {
  return Object.values(core.state.alertGroupingSettings).find((g) => g.serviceIds.includes(serviceId));
}

/**
 * Takes the service out of its setting (its own grouping parameters were set, or it was deleted). A
 * setting left without services is deleted with it: the Terraform provider replaces a setting whose
 * services are all new because "the API is silently triggering a deletion" of it when they go.
 */
export function leaveSetting(core: EmulatorCore, serviceId: string): void {
  const g = settingOf(core, serviceId);
  if (!g) return;
  g.serviceIds = g.serviceIds.filter((id) => id !== serviceId);
  if (g.serviceIds.length === 0) delete core.state.alertGroupingSettings[g.id];
}

/**
 * A service's `alert_grouping_parameters` under a setting: the description's "Alert Grouping
 * Settings Reference" form (`type: "alert_grouping_setting_reference"`), which names where the
 * service's grouping is configured now.
 */
export function settingReference(base: string, g: AlertGroupingSettingRecord) {
  return reference("alert_grouping_setting", g.id, g.name ?? g.id, `${base}/alert_grouping_settings/${g.id}`, `${base}/alert-grouping-settings/${g.id}`);
}
