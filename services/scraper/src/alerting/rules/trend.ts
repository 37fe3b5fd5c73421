/** How far back a forecast looks: long enough to smooth a burst, short enough to follow a change. */
export const TREND_WINDOW_MS = 5 * 60_000;
/** Two samples are a step, not a trend: a forecast needs three. */
const TREND_MIN_SAMPLES = 3;

/** One figure's recent samples, and the rate it moves at over them. */
export class Trend {
  private readonly at: number[] = [];
  private readonly values: number[] = [];

  constructor(private readonly windowMs = TREND_WINDOW_MS) {}

  add(atMs: number, value: number): void {
    this.at.push(atMs);
    this.values.push(value);
    while (this.at.length > 0 && this.at[0] < atMs - this.windowMs) {
      this.at.shift();
      this.values.shift();
    }
  }

  /** Units per second by least squares over the window; null until there are enough samples. */
  perSecond(): number | null {
    const n = this.at.length;
    if (n < TREND_MIN_SAMPLES) return null;
    const t0 = this.at[0];
    let st = 0;
    let sv = 0;
    for (let i = 0; i < n; i++) {
      st += (this.at[i] - t0) / 1000;
      sv += this.values[i];
    }
    const mt = st / n;
    const mv = sv / n;
    let num = 0;
    let den = 0;
    for (let i = 0; i < n; i++) {
      const dt = (this.at[i] - t0) / 1000 - mt;
      num += dt * (this.values[i] - mv);
      den += dt * dt;
    }
    return den === 0 ? null : num / den;
  }
}

/**
 * Seconds until `value` reaches `limit` at `perSecond`: 0 once there, Infinity when it does not
 * grow, null when the rate is not known yet.
 */
export function secondsUntil(value: number, limit: number, perSecond: number | null): number | null {
  if (value >= limit) return 0;
  if (perSecond === null) return null;
  return perSecond > 0 ? (limit - value) / perSecond : Infinity;
}
