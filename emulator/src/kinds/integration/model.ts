// An integration as the state keeps it, and its representation: its own routes show it, and a
// service shows its integrations with `include[]=integrations`.
import type { EmulatorCore } from "../../core";
import { EventError } from "../../errors";
import { reference } from "../../http";
import { serviceRef } from "../service/model";
import { vendorById } from "../../vendors";

declare module "../../store" {
  interface KindTables {
    integrations: Record<string, IntegrationRecord>;
  }
}

export interface IntegrationRecord {
  id: string;
  accountId: string;
  serviceId: string;
  type: string;
  name: string;
  vendorId: string | null;
  integration_key: string | null;
  integration_email: string | null;
  /** Email settings and anything else type-specific, stored as given (validated). */
  settings: Record<string, unknown>;
  created_at: string;
}

/** The integration whose `integration_key` is an event's routing key, or the Events API's "Invalid routing key". */
export function integrationByKey(core: EmulatorCore, key: string | undefined): IntegrationRecord {
  const integration = key === undefined ? undefined : Object.values(core.state.integrations).find((i) => i.integration_key === key);
  if (!integration) throw new EventError("invalid_event", ["Invalid routing key"]);
  return integration;
}

export function renderIntegration(core: EmulatorCore, base: string, i: IntegrationRecord) {
  const s = core.state.services[i.serviceId];
  const self = `${base}/services/${i.serviceId}/integrations/${i.id}`;
  return {
    id: i.id,
    type: i.type,
    summary: i.name,
    self,
    html_url: `${base}/services/${i.serviceId}/integrations/${i.id}`,
    name: i.name,
    service: serviceRef(base, s),
    created_at: i.created_at,
    vendor: i.vendorId ? reference("vendor", i.vendorId, vendorById(i.vendorId)?.name ?? i.vendorId, `${base}/vendors/${i.vendorId}`) : null,
    ...(i.integration_key !== null ? { integration_key: i.integration_key } : {}),
    ...(i.integration_email !== null ? { integration_email: i.integration_email } : {}),
    ...i.settings,
  };
}
