// Options are typed `XOptions` (all optional) and merged once into `Required<XOptions>` defaults,
// so the code behind them never handles a missing value. An explicit `undefined` keeps the default.
export function withDefaults<T extends object>(defaults: Required<T>, options?: T): Required<T> {
  const merged: Record<string, unknown> = { ...defaults };
  for (const [key, value] of Object.entries(options ?? {})) if (value !== undefined) merged[key] = value;
  return merged as Required<T>;
}
