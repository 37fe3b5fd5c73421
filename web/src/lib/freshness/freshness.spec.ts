import { describe, expect, it } from 'vitest';
import type { StreamState, StreamStatus } from '../stream/cluster-stream';
import { deriveFreshness, describeGap, formatAge, type ActiveQuery, type FreshnessState } from './freshness';

const NOW = Date.parse('2026-11-30T10:45:00Z');
const stream = (state: StreamState, downSince: number | null = null): StreamStatus => ({
  state,
  lastFrameAt: NOW - 3000,
  downSince,
  nextAttemptAt: downSince === null ? null : NOW + 4000,
  lastFailure: downSince === null ? null : 'the connection to the gateway failed',
  lastGap: null,
  malformedFrames: 0,
});
const query = (
  status: ActiveQuery['status'],
  dataUpdatedAt: number,
  label = 'cluster topology',
): ActiveQuery => ({
  label,
  status,
  fetching: false,
  dataUpdatedAt,
  errorUpdatedAt: status === 'error' ? NOW - 1000 : 0,
  error: status === 'error' ? 'PostgreSQL is not available (DATABASE_UNAVAILABLE)' : null,
});

type Streams = 'none' | StreamState | 'down, polls since' | 'down, no poll since';
const streams: Record<Streams, StreamStatus | null> = {
  none: null,
  connecting: stream('connecting'),
  live: stream('live'),
  reconnecting: stream('reconnecting', NOW - 20_000),
  'down, polls since': stream('reconnecting', NOW - 20_000),
  'down, no poll since': stream('reconnecting', NOW - 2000),
  removed: stream('removed'),
  stopped: stream('stopped'),
};
type Queries = 'none' | 'all fine' | 'one pending' | 'one in error';
const queries: Record<Queries, ActiveQuery[]> = {
  none: [],
  'all fine': [query('success', NOW - 5000), query('success', NOW - 9000, 'clusters')],
  'one pending': [query('pending', 0), query('success', NOW - 5000)],
  'one in error': [query('success', NOW - 5000), query('error', NOW - 60_000, 'cluster queues')],
};

/** The whole table: stream state × query states × paused. */
function expected(s: Streams, q: Queries, paused: boolean): FreshnessState {
  if (paused) return 'paused';
  if (q === 'one in error') return 'offline';
  if (s === 'removed') return 'offline';
  if (s === 'live') return 'live';
  if (s === 'none' || s === 'connecting' || s === 'stopped') return 'polling';
  // Down: Polling when a poll has succeeded since it went down, Reconnecting… until then.
  if (s === 'down, no poll since') return 'reconnecting';
  return q === 'none' ? 'reconnecting' : 'polling';
}

describe('deriveFreshness', () => {
  for (const s of Object.keys(streams) as Streams[])
    for (const q of Object.keys(queries) as Queries[])
      for (const paused of [false, true])
        it(`stream ${s}, queries ${q}, ${paused ? 'paused' : 'running'}`, () => {
          const view = deriveFreshness(
            { paused, waiting: 0, stream: streams[s], queries: queries[q], pollFloorMs: 5000 },
            NOW,
          );
          expect(view.state).toBe(expected(s, q, paused));
          expect(view.explanation.length).toBeGreaterThan(10);
        });

  it('reports the newest successful fetch, not the oldest', () => {
    const view = deriveFreshness(
      { paused: false, waiting: 0, stream: streams.live, queries: queries['all fine'], pollFloorMs: 5000 },
      NOW,
    );
    expect(view.lastUpdatedAt).toBe(NOW - 5000);
    expect(formatAge(view.lastUpdatedAt, NOW)).toBe('updated 5 s ago');
  });

  it('names the failed query and its error when offline', () => {
    const view = deriveFreshness(
      {
        paused: false,
        waiting: 0,
        stream: streams.live,
        queries: queries['one in error'],
        pollFloorMs: 5000,
      },
      NOW,
    );
    expect(view.explanation).toContain('cluster queues failed');
    expect(view.explanation).toContain('PostgreSQL is not available');
  });

  it('says how many updates wait while paused', () => {
    const view = deriveFreshness(
      { paused: true, waiting: 3, stream: streams.live, queries: queries['all fine'], pollFloorMs: 5000 },
      NOW,
    );
    expect(view.explanation).toContain('3 updates waiting');
  });

  it('mentions a recent replay gap in its explanation', () => {
    const gap = {
      clusterId: 'c',
      lastEventId: 1,
      replayFrom: 305,
      missed: 303,
      reason: 'replay-cap' as const,
      at: NOW - 1000,
    };
    const view = deriveFreshness(
      {
        paused: false,
        waiting: 0,
        stream: { ...streams.live!, lastGap: gap },
        queries: [],
        pollFloorMs: 5000,
      },
      NOW,
    );
    expect(view.explanation).toContain('303 events missed during the last reconnect were not replayed');
  });
});

describe('describeGap', () => {
  it('counts what the cap left out, and does not invent a count when the history was away', () => {
    expect(describeGap({ missed: 1, reason: 'replay-cap' })).toMatch(/^1 event missed .*replay cap/);
    expect(describeGap({ missed: null, reason: 'history-unavailable' })).toMatch(
      /^Any events missed .*history was unavailable/,
    );
  });
});

describe('the gateway away: stream and polls down for the same reason', () => {
  const unreachable: ActiveQuery = {
    ...query('error', NOW - 30_000, 'the settings'),
    error: 'the gateway could not be reached (GATEWAY_UNREACHABLE)',
    gatewayUnreachable: true,
  };
  const input = (queries: ActiveQuery[], s = stream('reconnecting', NOW - 2000)) => ({
    paused: false,
    waiting: 0,
    stream: s,
    queries,
    pollFloorMs: 5000,
  });

  it('reads Reconnecting whether or not a poll has failed yet, and says the gateway cannot be reached', () => {
    expect(deriveFreshness(input([query('success', NOW - 30_000)]), NOW).state).toBe('reconnecting');
    const view = deriveFreshness(input([unreachable, query('success', NOW - 30_000)]), NOW);
    expect(view.state).toBe('reconnecting');
    expect(view.explanation).toMatch(
      /^Reconnecting: the gateway cannot be reached\. The stream is down since/,
    );
  });

  it('still reads Offline for a failure behind a reachable gateway, or with the stream live', () => {
    expect(deriveFreshness(input([unreachable, query('error', NOW - 30_000)]), NOW).state).toBe('offline');
    expect(deriveFreshness(input([unreachable], stream('live')), NOW).state).toBe('offline');
  });
});
