import { aboveBand, baselineAt, baselineHours, HOUR_MS, hourOf, WEEK_MS } from './queue-baselines';

const NOW = Date.UTC(2026, 11, 7, 10, 20); // a Monday, 10:20
const DAY_MS = 24 * HOUR_MS;

/** Hourly peaks for the last `days` days: `busy` from 09:00 to 17:00 UTC, `quiet` otherwise. */
function dailyPattern(days: number, busy: number, quiet: number): Map<number, number> {
  const peaks = new Map<number, number>();
  for (let hour = hourOf(NOW) - days * DAY_MS; hour < hourOf(NOW); hour += HOUR_MS) {
    const h = new Date(hour).getUTCHours();
    peaks.set(hour, h >= 9 && h < 17 ? busy : quiet);
  }
  return peaks;
}

describe('a queue usual band for an hour of the week', () => {
  it('reads each of the last four weeks at the same hour and the hours either side', () => {
    const hours = baselineHours(NOW);
    expect(hours).toHaveLength(12);
    expect(hours).toContain(hourOf(NOW) - WEEK_MS);
    expect(hours).toContain(hourOf(NOW) - 4 * WEEK_MS + HOUR_MS);
    expect(hours).not.toContain(hourOf(NOW));
  });

  it('learns a busy hour as busy and a quiet one as quiet from two weeks of a daily pattern', () => {
    const peaks = dailyPattern(15, 1_000, 2);
    const busy = baselineAt(peaks, hourOf(NOW) - 15 * DAY_MS, NOW);
    expect(busy.band).toEqual({ low: 1_000, usual: 1_000, high: 1_000, weeks: 2 });
    const night = NOW - 8 * HOUR_MS; // 02:20, in the quiet hours
    const quiet = baselineAt(peaks, hourOf(NOW) - 15 * DAY_MS, night);
    expect(quiet.band?.high).toBe(2);
    // The same 900 messages: five times the top at night, nothing unusual in the day.
    expect(aboveBand(900, quiet.band!, 5)).toBe(true);
    expect(aboveBand(900, busy.band!, 5)).toBe(false);
  });

  it('has no band with less than two weeks seen, and says how much history there is', () => {
    const peaks = dailyPattern(3, 1_000, 2);
    expect(baselineAt(peaks, hourOf(NOW) - 3 * DAY_MS, NOW)).toEqual({
      band: null,
      why: '3 days of history, 0 of the last 4 weeks seen at this hour: a band needs 2',
    });
    expect(baselineAt(new Map(), null, NOW).why).toMatch(/no history of this queue yet/);
    // One week is an anecdote.
    expect(baselineAt(dailyPattern(8, 1_000, 2), hourOf(NOW) - 8 * DAY_MS, NOW).band).toBeNull();
  });

  it('takes percentiles, so one odd week does not make the band', () => {
    const peaks = new Map<number, number>();
    for (const hour of baselineHours(NOW)) peaks.set(hour, 10);
    peaks.set(hourOf(NOW) - 2 * WEEK_MS, 5_000);
    const { band } = baselineAt(peaks, hourOf(NOW) - 5 * WEEK_MS, NOW);
    expect(band).toMatchObject({ usual: 10, weeks: 4 });
    expect(band!.high).toBeLessThan(5_000);
  });

  it('reads an empty usual hour as one message, so a few messages there do not fire at any multiple', () => {
    const band = { low: 0, usual: 0, high: 0, weeks: 4 };
    expect(aboveBand(3, band, 5)).toBe(false);
    expect(aboveBand(6, band, 5)).toBe(true);
  });
});
