import type { AlertSummary } from '@artemis-studio/contracts';
import { describe, expect, it } from 'vitest';
import { chartRangeFor, deliveryStatusText, summaryLook } from './alert-text';

const summary = (over: Partial<AlertSummary> = {}): AlertSummary => ({
  firing: 0,
  pending: 0,
  silenced: 0,
  bySeverity: { info: 0, warning: 0, critical: 0 },
  unevaluated: [],
  ...over,
});
const stale = { clusterId: 'c', clusterName: 'prod', evaluatedAt: null, reason: 'not evaluated yet' };

describe('the header alert count', () => {
  it('is calm only when every cluster with rules was evaluated lately and nothing fires', () => {
    expect(summaryLook(summary(), false)).toMatchObject({ label: 'No alerts', color: 'gray' });
    expect(summaryLook(summary({ unevaluated: [stale] }), false)).toMatchObject({
      label: 'Alerts not evaluated',
      color: 'yellow',
      detail: 'prod: not evaluated yet',
    });
  });

  it('says unknown, not zero, when the count cannot be read', () => {
    expect(summaryLook(undefined, false).label).toBe('Alerts unknown');
    expect(summaryLook(summary(), true).label).toBe('Alerts unknown');
  });

  it('counts firing alerts, red when one is critical, and still says what was not evaluated', () => {
    const firing = summaryLook(
      summary({ firing: 2, bySeverity: { info: 0, warning: 1, critical: 1 } }),
      false,
    );
    expect(firing).toMatchObject({ label: '2 firing', color: 'red' });
    expect(summaryLook(summary({ firing: 1, unevaluated: [stale] }), false).detail).toMatch(
      /not evaluated lately/,
    );
  });
});

describe('a delivery in the log', () => {
  const pending = { status: 'pending' as const, attempts: 0, nextAttemptAt: null, lastError: null };

  it('says sending while a first try is under way, and retrying only after one failed', () => {
    expect(deliveryStatusText(pending)).toBe('pending');
    const held = { ...pending, attempts: 1, nextAttemptAt: '2026-12-02T01:44:48.000Z' };
    expect(deliveryStatusText(held)).toBe('sending');
    expect(deliveryStatusText({ ...held, lastError: 'HTTP 503' })).toMatch(/^retrying at /);
    expect(deliveryStatusText({ ...held, status: 'delivered' })).toBe('delivered');
  });
});

describe("an alert's chart range", () => {
  const now = Date.parse('2026-12-02T10:00:00Z');
  const startedAgo = (ms: number) => ({ startedAt: new Date(now - ms).toISOString() });

  it('draws a short alert across the chart: five minutes, not an hour', () => {
    expect(chartRangeFor(startedAgo(2000), now)).toBe(5 * 60_000);
  });

  it('reaches a quarter of its age back before a longer one started, in whole minutes', () => {
    expect(chartRangeFor(startedAgo(40 * 60_000), now)).toBe(50 * 60_000);
    expect(chartRangeFor(startedAgo(10 * 60_000 + 1), now)).toBe(13 * 60_000);
  });

  it('stops at a day', () => {
    expect(chartRangeFor(startedAgo(3 * 24 * 3_600_000), now)).toBe(24 * 3_600_000);
  });
});
