// Every kind of object the emulator serves, listed once: the core makes the state of their tables
// (with its own), the app registers their routes and asks them at the lag gate, and a deleted
// service lets each take what is its, in this order. A kind is one module (kind.ts) and one line
// here; the kinds' test (tests/emulator/kinds.test.ts) makes an example of each through its routes.
import type { KindTables } from "../store";
import { kind as alert } from "./alert";
import { kind as alertGroupingSetting } from "./alert-grouping-setting";
import { kind as auditRecord } from "./audit-record";
import { kind as businessService } from "./business-service";
import { kind as cacheVariable } from "./cache-variable";
import { kind as customField } from "./custom-field";
import { kind as customFieldValues } from "./custom-field-values";
import { kind as enablement } from "./enablement";
import { kind as eventRule } from "./event-rule";
import { kind as incident } from "./incident";
import { kind as integration } from "./integration";
import { kind as maintenanceWindow } from "./maintenance-window";
import type { AnyKind } from "./kind";
import { kind as orchestration } from "./orchestration";
import { kind as service } from "./service";
import { kind as serviceDependency } from "./service-dependency";

/** The service first: the lag gate asks about a hidden service before its children. */
export const KIND_MODULES = [
  service,
  integration,
  eventRule,
  orchestration,
  cacheVariable,
  customField,
  customFieldValues,
  enablement,
  alertGroupingSetting,
  businessService,
  serviceDependency,
  incident,
  alert,
  auditRecord,
  maintenanceWindow,
] as const;

type TablesOf<K> = K extends { readonly tables: infer T } ? keyof T : never;

/**
 * Which kind brings each table of the state. Typed by `KindTables`: a module that adds a table there
 * while its kind is not listed above fails to compile here, naming the table.
 */
export const TABLE_KINDS = Object.fromEntries(KIND_MODULES.flatMap((k) => Object.keys(k.tables).map((t) => [t, k as AnyKind]))) as Record<
  TablesOf<(typeof KIND_MODULES)[number]>,
  AnyKind
> satisfies Record<keyof KindTables, AnyKind>;
