import { formatTime } from '../ui/format';
import type { StreamStatus } from '../stream/cluster-stream';

/** ADR-0052's five states, and nothing else. */
export type FreshnessState = 'live' | 'polling' | 'reconnecting' | 'offline' | 'paused';

/** A query the current screen depends on (one with active observers). */
export interface ActiveQuery {
  label: string;
  status: 'pending' | 'error' | 'success';
  fetching: boolean;
  dataUpdatedAt: number;
  errorUpdatedAt: number;
  error: string | null;
  /** The query failed because the gateway itself could not be reached (no answer at all). */
  gatewayUnreachable?: boolean;
}

export interface FreshnessInput {
  paused: boolean;
  waiting: number;
  /** The screen's live stream; null on a screen that has none (it polls). */
  stream: StreamStatus | null;
  queries: readonly ActiveQuery[];
  pollFloorMs: number;
}

export interface Freshness {
  state: FreshnessState;
  /** The newest successful fetch among the screen's queries (newest, not oldest: ADR-0052). */
  lastUpdatedAt: number | null;
  fetching: boolean;
  waiting: number;
  /** One sentence: why this state. */
  explanation: string;
}

const clock = (at: number) => formatTime(at);
const seconds = (ms: number) => `${Math.max(0, Math.round(ms / 1000))} s`;

/** "updated 4 s ago", "updated 3 min ago": the ticking part of the indicator. */
export function formatAge(lastUpdatedAt: number | null, now: number): string {
  if (lastUpdatedAt === null || lastUpdatedAt === 0) return 'not loaded yet';
  const s = Math.max(0, Math.floor((now - lastUpdatedAt) / 1000));
  if (s < 60) return `updated ${s} s ago`;
  if (s < 3600) return `updated ${Math.floor(s / 60)} min ago`;
  return `updated at ${clock(lastUpdatedAt)}`;
}

/**
 * The indicator, derived rather than wired: from the pause, the screen's stream and the queries
 * with active observers. Stream health and data health stay separate: a stream that is down while
 * the polls succeed is Polling, not Offline; any query in error is Offline.
 */
export function deriveFreshness(input: FreshnessInput, now: number): Freshness {
  const view = deriveState(input, now);
  const gap = input.stream?.lastGap;
  if (!gap || now - gap.at > GAP_NOTE_MS) return view;
  return { ...view, explanation: `${view.explanation} ${describeGap(gap)}` };
}

/** How long a replay gap is mentioned in the explanation after it was announced. */
const GAP_NOTE_MS = 15 * 60_000;

/** "303 events were not replayed after the last reconnect: they are in the history." */
export function describeGap(gap: { missed: number | null; reason: string }): string {
  const count = gap.missed === null ? 'Any events' : `${gap.missed} event${gap.missed === 1 ? '' : 's'}`;
  const why = gap.reason === 'replay-cap' ? 'more than the replay cap' : 'the history was unavailable';
  return `${count} missed during the last reconnect were not replayed (${why}): they are in the history.`;
}

function deriveState(input: FreshnessInput, now: number): Freshness {
  const { queries, stream } = input;
  const updated = queries.map((q) => q.dataUpdatedAt).filter((t) => t > 0);
  const lastUpdatedAt = updated.length ? Math.max(...updated) : null;
  const base = { lastUpdatedAt, fetching: queries.some((q) => q.fetching), waiting: input.waiting };

  if (input.paused) {
    const waiting =
      input.waiting === 0
        ? 'nothing new yet'
        : `${input.waiting} update${input.waiting === 1 ? '' : 's'} waiting`;
    return {
      ...base,
      state: 'paused',
      explanation: `Paused: nothing refreshes until you resume (${waiting}).`,
    };
  }

  const failed = queries
    .filter((q) => q.status === 'error')
    .sort((a, b) => b.errorUpdatedAt - a.errorUpdatedAt);
  // The gateway is away and the stream is already reconnecting to it: the polls fail for the same
  // reason, and Reconnecting says more (since when, the next attempt) than Offline would. Which of
  // the two an operator saw used to depend on whether a poll had failed yet.
  const sameOutage =
    stream?.state === 'reconnecting' && failed.length > 0 && failed.every((q) => q.gatewayUnreachable);
  if (failed.length > 0 && !sameOutage) {
    const first = failed[0];
    const others = failed.length > 1 ? ` (and ${failed.length - 1} more)` : '';
    return {
      ...base,
      state: 'offline',
      explanation: `Offline: ${first.label} failed at ${clock(first.errorUpdatedAt)}: ${first.error ?? 'unknown error'}${others}.`,
    };
  }

  const floor = seconds(input.pollFloorMs);
  if (stream === null)
    return {
      ...base,
      state: 'polling',
      explanation: `Polling: this screen has no live stream and refreshes every ${floor}.`,
    };

  switch (stream.state) {
    case 'live': {
      const heard =
        stream.lastFrameAt === null ? '' : ` (last heard ${seconds(now - stream.lastFrameAt)} ago)`;
      return {
        ...base,
        state: 'live',
        explanation: `Live: the stream is open${heard}; changes arrive as they happen.`,
      };
    }
    case 'connecting':
    case 'stopped':
      return {
        ...base,
        state: 'polling',
        explanation: `Polling: opening the live stream; refreshing every ${floor} until it is up.`,
      };
    case 'removed':
      return { ...base, state: 'offline', explanation: 'Offline: this cluster was removed.' };
    case 'reconnecting': {
      const down = stream.downSince ?? now;
      const why = stream.lastFailure ? ` (${stream.lastFailure})` : '';
      const next =
        stream.nextAttemptAt === null ? '' : `; next attempt in ${seconds(stream.nextAttemptAt - now)}`;
      const since = `${sameOutage ? 'the gateway cannot be reached. ' : ''}The stream is down since ${clock(down)}${why}${next}`;
      // Polls that succeeded after the stream went down keep the data fresh: Polling, not a fault.
      return lastUpdatedAt !== null && lastUpdatedAt >= down
        ? {
            ...base,
            state: 'polling',
            explanation: `Polling: ${since}; data refreshed every ${floor} meanwhile.`,
          }
        : { ...base, state: 'reconnecting', explanation: `Reconnecting: ${since}.` };
    }
  }
}
