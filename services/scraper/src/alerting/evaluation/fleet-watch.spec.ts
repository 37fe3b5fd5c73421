import type { PollingFacts } from '../rules/polling-reading';
import type { LoadedRule, TierEvaluation } from './alert-evaluation.repository';
import { FleetWatch } from './fleet-watch';

const prod = { id: '00000000-0000-4000-8000-000000000001', name: 'prod' };
const now = new Date('2026-12-06T05:00:00Z');
const rule: LoadedRule = {
  id: 'rule-scraper',
  kind: 'studio-scraper-unowned',
  subjects: '*',
  threshold: null,
  forSeconds: 0,
  severity: 'critical',
  retired: null,
};

/** A watch over `watched`, whose facts come from `facts` (throwing: unreadable), recording what it does. */
function watchOf(watched: () => (typeof prod)[], facts: () => PollingFacts) {
  const applied: { steps: { kind: string }[]; evaluation: TierEvaluation }[] = [];
  const standIns: [string, boolean][] = [];
  const watch = new FleetWatch({
    evaluation: {
      store: {
        load: async () => ({ rules: [rule], open: [] }),
        apply: async (_id, steps, _now, evaluation) => {
          applied.push({ steps: [...steps], evaluation });
          return [];
        },
      },
      committed: () => undefined,
      intervals: () => ({ tierAMs: 5_000, tierBMs: 30_000 }),
      log: { warn: () => undefined },
    },
    facts: {
      watched: async () => watched(),
      of: async (ids) => new Map(ids.map((id) => [id, facts()])),
    },
    standIn: (cluster, on) => standIns.push([cluster.name, on]),
  });
  return { watch, applied, standIns };
}

describe("the fleet's watch of who polls each cluster", () => {
  it('opens the alert and stands in for the courier while nobody polls, and leaves it when one does', async () => {
    let facts: PollingFacts = { owned: false, lastPolledAt: null };
    const { watch, applied, standIns } = watchOf(
      () => [prod],
      () => facts,
    );
    await watch.round(now);
    expect(applied[0].steps).toMatchObject([{ kind: 'open' }]);
    expect(applied[0].evaluation).toMatchObject({ scope: 'fleet', intervalMs: 5_000, unknown: null });
    expect(standIns).toEqual([['prod', true]]);
    await watch.round(now);
    expect(standIns).toHaveLength(1);
    facts = { owned: true, lastPolledAt: new Date(now.getTime() - 2_000) };
    await watch.round(now);
    expect(standIns).toEqual([
      ['prod', true],
      ['prod', false],
    ]);
  });

  it('records its figures as unknown when the leases cannot be read, changing no stand-in', async () => {
    const { watch, applied, standIns } = watchOf(
      () => [prod],
      () => {
        throw new Error('NATS is not connected');
      },
    );
    await watch.round(now);
    expect(applied[0].evaluation.unknown).toMatch(/could not be read: NATS is not connected/);
    expect(standIns).toEqual([]);
  });

  it('stops standing in for a cluster no longer watched (its rule deleted, or the cluster)', async () => {
    let watched = [prod];
    const { watch, standIns } = watchOf(
      () => watched,
      () => ({ owned: false, lastPolledAt: null }),
    );
    await watch.round(now);
    watched = [];
    await watch.round(now);
    expect(standIns).toEqual([
      ['prod', true],
      ['prod', false],
    ]);
  });
});
