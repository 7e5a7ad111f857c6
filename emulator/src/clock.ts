// A clock tests can move forward: code lifetimes, token expiry, audit timestamps and rate-limit
// windows all read it, so a test checks "30 s later" without sleeping.
export class Clock {
  private offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  iso(): string {
    return new Date(this.now()).toISOString();
  }

  advance(ms: number): number {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError("advance takes a non-negative number of ms");
    this.offsetMs += ms;
    return this.now();
  }

  reset(): void {
    this.offsetMs = 0;
  }

  get offset(): number {
    return this.offsetMs;
  }
}
