// A service event rule as the state keeps it: its fields as validated, its service. Its position is
// its index in the service's `ruleIds`.

declare module "../../store" {
  interface KindTables {
    rules: Record<string, RuleRecord>;
  }
}

export interface RuleRecord {
  id: string;
  accountId: string;
  serviceId: string;
  disabled: boolean;
  conditions: unknown;
  time_frame: unknown;
  variables: unknown[];
  actions: unknown;
}
