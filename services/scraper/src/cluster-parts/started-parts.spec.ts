import type { ClusterTarget } from '@artemis-studio/db';
import { Injectable } from '@nestjs/common';
import type { AnyClusterPart, ClusterPart, OwnerRpcHandlers, PartRun } from './cluster-part';
import { checkServed, clusterParts } from './cluster-parts';
import type { OwnedCluster } from './owned-cluster';
import { StartedParts } from './started-parts';

const target = { id: 'c1', name: 'prod', nodes: [] } as unknown as ClusterTarget;

/** A part that writes down what happens to it. */
function part(name: string, said: string[], run: Omit<PartRun<never>, 'handlers'> = {}): AnyClusterPart {
  return {
    serves: [],
    start: () => {
      said.push(`${name} started`);
      return {
        ...run,
        stop: () => void said.push(`${name} stopped`),
        released: (deleted) => void said.push(`${name} released${deleted ? ', deleted' : ''}`),
      };
    },
  };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('StartedParts: every part of one owned cluster', () => {
  it('starts the parts in order, stops them in reverse, and lets go of them in order', async () => {
    const said: string[] = [];
    const sut = new StartedParts(
      target,
      [part('polling', said), part('alerting', said)],
      () => () => undefined,
      {
        warn: () => undefined,
      },
    );
    sut.stop();
    await sut.released(true);
    expect(said).toEqual([
      'polling started',
      'alerting started',
      'alerting stopped',
      'polling stopped',
      'polling released, deleted',
      'alerting released, deleted',
    ]);
  });

  it("serves the union of the parts' owner RPCs once every part is ready, and no longer once stopped", async () => {
    let ready: () => void = () => undefined;
    const served: string[][] = [];
    let serving = false;
    const liveList = jest.fn() as unknown as OwnerRpcHandlers['liveList'];
    const queueAction = jest.fn() as unknown as OwnerRpcHandlers['queueAction'];
    const parts: AnyClusterPart[] = [
      { serves: ['liveList'], start: () => ({ handlers: { liveList } }) },
      {
        serves: ['queueAction'],
        start: () => ({ handlers: { queueAction }, ready: new Promise<void>((r) => (ready = r)) }),
      },
    ];
    const sut = new StartedParts(
      target,
      parts,
      (_, handlers) => {
        served.push(Object.keys(handlers));
        serving = true;
        return () => void (serving = false);
      },
      { warn: () => undefined },
    );
    await flush();
    expect(served).toEqual([]);
    ready();
    await flush();
    expect(served).toEqual([['liveList', 'queueAction']]);
    sut.stop();
    expect(serving).toBe(false);
  });

  it('tells the parts the cluster is let go of (a message job stops between batches)', () => {
    let cluster: OwnedCluster | undefined;
    const sut = new StartedParts(
      target,
      [{ serves: [], start: (c) => ((cluster = c), {}) }],
      () => () => undefined,
      { warn: () => undefined },
    );
    expect(cluster?.stopped.aborted).toBe(false);
    sut.stop();
    expect(cluster?.stopped.aborted).toBe(true);
  });

  it('says a part that fails to let go, and lets the others go', async () => {
    const said: string[] = [];
    const warnings: string[] = [];
    const failing: AnyClusterPart = {
      serves: [],
      start: () => ({
        released: () => {
          throw new Error('bucket away');
        },
      }),
    };
    const sut = new StartedParts(target, [failing, part('export', said)], () => () => undefined, {
      warn: (m) => void warnings.push(m),
    });
    await sut.released(false);
    expect(warnings).toEqual(['cluster prod: a part did not let go cleanly: bucket away']);
    expect(said).toContain('export released');
  });
});

describe('clusterParts: the owner RPCs and the parts that serve them', () => {
  @Injectable()
  class Lists implements ClusterPart<'liveList'> {
    readonly serves = ['liveList'] as const;
    start(): PartRun<'liveList'> {
      return { handlers: { liveList: jest.fn() } };
    }
  }

  it('does not compile while an owner RPC is served by no part', () => {
    // @ts-expect-error queueAction, brokerChange and the others have no part here
    expect(() => clusterParts([Lists])).not.toThrow();
  });

  it('refuses at start an owner RPC served by two parts, or by none', () => {
    const all = [
      'liveList',
      'queueAction',
      'queueBrowse',
      'queueExport',
      'queueImport',
      'brokerChange',
      'messageJobStart',
      'messageJobResume',
      'messageJobImpact',
      'deadLetterGroups',
      'alertRuleTest',
    ] as const;
    expect(() => checkServed([{ serves: all }])).not.toThrow();
    expect(() => checkServed([{ serves: all }, { serves: ['liveList'] }])).toThrow(
      "the scraper's parts: liveList is served by 2 parts",
    );
    expect(() => checkServed([{ serves: all.slice(1) }])).toThrow('liveList is served by 0 parts');
  });
});
