import type { MessageJob } from '@artemis-studio/contracts';
import { describe, expect, it } from 'vitest';
import { jobEnding, jobPercent, jobProgress, jobStatement } from './job-text';

const job = (over: Partial<MessageJob> = {}): MessageJob => ({
  id: '00000000-0000-4000-8000-000000000001',
  clusterId: '00000000-0000-4000-8000-000000000002',
  queue: 'orders.DLQ',
  kind: 'retry',
  status: 'running',
  filter: null,
  origin: 'orders',
  chosen: null,
  target: 'orders',
  quarantine: false,
  toNode: null,
  batchSize: 500,
  rate: null,
  waitForConsumer: false,
  waiting: null,
  pauseOnReturns: null,
  returned: 0,
  planned: { count: 200, atLeast: true },
  bodyFilter: null,
  bodyScan: null,
  processed: 4200,
  nodes: [{ node: 'a', processed: 4200, batches: 9, notReached: 0, returned: 0, error: null }],
  inFlight: null,
  cancellable: true,
  cancelRequested: false,
  resumable: false,
  resumes: 0,
  error: null,
  requestedBy: 'ops',
  startedAt: '2026-12-01T10:00:00.000Z',
  updatedAt: '2026-12-01T10:00:05.000Z',
  finishedAt: null,
  ...over,
});

describe('message job words', () => {
  it('states a lower bound as one, and names the group and the nodes', () => {
    expect(
      jobStatement('retry', 'orders.DLQ', {
        origin: 'orders',
        target: 'orders',
        impact: {
          clusterId: job().clusterId,
          queue: 'orders.DLQ',
          kind: 'retry',
          filter: null,
          messages: { count: 200, atLeast: true },
          nodes: [{ node: 'a', messages: { count: 200, atLeast: true }, depth: 12408 }],
          browseLimit: 200,
          bodyScan: null,
        },
      }),
    ).toBe('Retry at least 200 messages from orders.DLQ back to orders, on node a');
    expect(jobStatement('delete', 'q', { chosen: 1 })).toBe('Delete 1 message from q');
    expect(jobStatement('retry', 'q.DLQ', { origin: 'q', target: 'q.held', quarantine: true })).toBe(
      'Retry messages from q.DLQ into the quarantine queue q.held',
    );
  });

  it('names both nodes of a move to another node, not a queue', () => {
    expect(
      jobStatement('move', 'held.orders', { chosen: 10, nodeMove: { from: 'node2', to: 'node1' } }),
    ).toBe('Move 10 messages of held.orders from node2 to node1');
    const moved = job({
      kind: 'move',
      queue: 'held.orders',
      target: 'held.orders',
      toNode: 'node1',
      origin: null,
      planned: { count: 10, atLeast: false },
      processed: 10,
    });
    expect(jobProgress(moved)).toBe('moved 10 of 10 messages to node1');
  });

  it('says a retry by filter sends each message back where it came from', () => {
    expect(jobStatement('retry', 'shared.DLQ', { filter: "region = 'eu'" })).toBe(
      "Retry messages matching region = 'eu' from shared.DLQ back where they came from",
    );
    const retried = job({
      target: null,
      origin: null,
      planned: { count: 145, atLeast: false },
      processed: 145,
    });
    expect(jobProgress(retried)).toBe('retried 145 of 145 messages back where they came from');
  });

  it('never shows a progress bar past full, nor one without a plan', () => {
    expect(jobPercent(job({ planned: { count: 4000, atLeast: false } }))).toBe(100);
    expect(jobPercent(job())).toBeNull();
    expect(jobPercent(job({ planned: { count: 10_000, atLeast: false } }))).toBe(42);
    expect(jobPercent(job({ planned: null }))).toBeNull();
    expect(jobProgress(job())).toBe(
      'retried 4,200 to orders (the broker counted at least 200 messages at the start)',
    );
  });

  it('says what a cancel, a failure and an interruption mean for the count', () => {
    expect(
      jobProgress(
        job({
          chosen: 5,
          planned: null,
          processed: 4,
          nodes: [{ node: 'a', processed: 4, batches: 1, notReached: 1, returned: 0, error: null }],
        }),
      ),
    ).toBe('retried 4 of 5 chosen to orders (1 not reached: paged out of memory or gone)');
    expect(jobEnding(job({ status: 'cancelled' }))).toMatch(/count is exact/);
    const paused = job({
      status: 'paused',
      pauseOnReturns: { percent: 20, withinSeconds: 60 },
      returned: 12,
      error: '12 of the 50 messages sent in the last 60 s came back (more than 20%)',
    });
    expect(jobProgress(paused)).toMatch(/; 12 came back since$/);
    expect(jobEnding(paused)).toMatch(/^paused itself on bounce-back: 12 of the 50.*redrive again once/);
    expect(jobEnding({ ...paused, resumable: true })).toMatch(/: resume it once the consumer is fixed$/);
    expect(jobEnding(job({ status: 'failed', error: 'a: no', inFlight: 500 }))).toBe(
      'stopped: a: no; the last 500 messages may or may not have been processed',
    );
    expect(jobEnding(job({ status: 'interrupted', error: null, inFlight: 1 }))).toBe(
      'interrupted: the replica running it stopped; up to 1 message more may have been processed',
    );
  });
});
