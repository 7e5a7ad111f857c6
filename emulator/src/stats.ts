// Request statistics for tests and benchmarks: counts by route pattern and status.
export type Grant = "client_credentials" | "authorization_code" | "refresh_token";

export class Stats {
  total = 0;
  byRoute: Record<string, Record<string, number>> = {};
  tokensIssued: Record<Grant, number> = { client_credentials: 0, authorization_code: 0, refresh_token: 0 };
  faultsInjected = 0;
  rateLimited = 0;
  /** Consistency lag (lag.ts): not-founds answered because of it, objects it left out of listings. */
  lag = { hidden404: 0, leftOut: 0 };
  /**
   * Events API v2: events accepted (202), incidents they opened, and events that changed nothing
   * because their service was disabled or in maintenance.
   */
  events = { accepted: 0, incidentsOpened: 0, ignored: 0 };

  count(route: string, status: number | "dropped"): void {
    this.total++;
    const r = (this.byRoute[route] ??= {});
    r[status] = (r[status] ?? 0) + 1;
  }

  toJSON() {
    return {
      total: this.total,
      byRoute: this.byRoute,
      tokensIssued: this.tokensIssued,
      faultsInjected: this.faultsInjected,
      rateLimited: this.rateLimited,
      lag: this.lag,
      events: this.events,
    };
  }
}
