/**
 * A queue's usual band for an hour of the week (ADR-0039), learned from its own past weeks: the
 * peaks of that hour and the hours either side of it, over the last `BASELINE_WEEKS` weeks. Plain
 * functions: the scraper's evaluation and the gateway's chart read the same band.
 */

import { HOUR_MS } from './sql/time-partitions';

export { HOUR_MS };
export const WEEK_MS = 7 * 24 * HOUR_MS;
/** How far back a band looks: four weeks, each week's same hour and the hours either side. */
const BASELINE_WEEKS = 4;
/** Weeks that must have been seen at an hour before it has a band: one week is an anecdote. */
const BASELINE_MIN_WEEKS = 2;
/** A usual top of 0 (a queue that is empty at that hour) is read as this, so "5×" still means something. */
const BASELINE_FLOOR = 1;

/** What a queue usually holds at an hour of the week: the 10th, 50th and 90th percentiles of its peaks. */
export interface UsualBand {
  low: number;
  usual: number;
  high: number;
  /** How many of the last weeks were seen at this hour. */
  weeks: number;
}

/** A band, or why there is none: unknown stays unknown. */
export type Baseline = { band: UsualBand; why: null } | { band: null; why: string };

/** The start of the hour holding `atMs`. */
export const hourOf = (atMs: number): number => Math.floor(atMs / HOUR_MS) * HOUR_MS;

/** The hours a band at `atMs` reads: for each of the last weeks, its same hour and the hours either side. */
export function baselineHours(atMs: number): number[] {
  const hour = hourOf(atMs);
  const hours: number[] = [];
  for (let week = 1; week <= BASELINE_WEEKS; week++)
    for (const side of [-1, 0, 1]) hours.push(hour - week * WEEK_MS + side * HOUR_MS);
  return hours;
}

/** The q-quantile of sorted values, interpolated between the two nearest. */
function quantile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const below = Math.floor(at);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below] + (sorted[above] - sorted[below]) * (at - below);
}

/**
 * The band at `atMs` from a queue's hourly peaks (hour start → peak), or why there is none.
 * `firstHourMs` is the queue's oldest summed-up hour (null: none), to say how much history there is.
 */
export function baselineAt(
  peaks: ReadonlyMap<number, number>,
  firstHourMs: number | null,
  atMs: number,
): Baseline {
  const values: number[] = [];
  const weeks = new Set<number>();
  baselineHours(atMs).forEach((hour, i) => {
    const peak = peaks.get(hour);
    if (peak === undefined) return;
    values.push(peak);
    weeks.add(Math.floor(i / 3));
  });
  if (weeks.size < BASELINE_MIN_WEEKS) {
    const days = firstHourMs === null ? 0 : Math.floor((atMs - firstHourMs) / (24 * HOUR_MS));
    return {
      band: null,
      why:
        firstHourMs === null
          ? 'no history of this queue yet: a band needs two weeks of it'
          : `${days} day${days === 1 ? '' : 's'} of history, ${weeks.size} of the last ${BASELINE_WEEKS} weeks seen at this hour: a band needs ${BASELINE_MIN_WEEKS}`,
    };
  }
  values.sort((a, b) => a - b);
  return {
    band: {
      low: quantile(values, 0.1),
      usual: quantile(values, 0.5),
      high: quantile(values, 0.9),
      weeks: weeks.size,
    },
    why: null,
  };
}

/** Whether `value` is above `times` the top of the band (floored), the baseline rules' condition. */
export const aboveBand = (value: number, band: UsualBand, times: number): boolean =>
  value > times * Math.max(band.high, BASELINE_FLOOR);
