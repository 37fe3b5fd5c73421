import { CreateAlertRuleRequestSchema, ownerRpcs } from '@artemis-studio/contracts';
import { brokerExec, drainQueue, fillQueue, waitFor, writeQueueHours } from '@artemis-studio/testing';
import { AlertingStack } from './alerting-stack.fixture';

/**
 * Baselines (issue 61, item 2; ADR-0039) on the real broker: each queue's usual depth for the hour
 * is learned from its stored hours, here written as two weeks (or three days) of a daily pattern.
 */
describe('baseline rules against a real broker, PostgreSQL and NATS', () => {
  const stack = new AlertingStack();
  const prefix = `baseline-${stack.clusterName}`;
  const queues = { busy: `${prefix}.busy`, quiet: `${prefix}.quiet`, young: `${prefix}.young` };

  const writeHistory = (queue: string, days: number, busyHour: number, peak: number) =>
    writeQueueHours(stack.cluster.id, queue, { days, busyHour, peak }, stack.db);

  beforeAll(async () => {
    await stack.start();
    for (const queue of Object.values(queues))
      await brokerExec(stack.broker, 'createQueue(java.lang.String,boolean)', [
        JSON.stringify({ name: queue, address: queue, 'routing-type': 'ANYCAST' }),
        true,
      ]);
    const now = new Date().getUTCHours();
    // Busy at this hour every day; busy twelve hours from now (so quiet now); busy, but seen three days.
    await writeHistory(queues.busy, 15, now, 200);
    await writeHistory(queues.quiet, 15, (now + 12) % 24, 200);
    await writeHistory(queues.young, 3, now, 200);
  });
  afterAll(async () => {
    for (const queue of Object.values(queues))
      await brokerExec(stack.broker, 'destroyQueue(java.lang.String,boolean)', [queue, true]).catch(
        () => undefined,
      );
    await stack.db.query(`DELETE FROM queue_hour WHERE cluster_id = $1`, [stack.cluster.id]);
    await stack.stop();
  });

  it('fires on a level that is unusual for the hour, not on the same level at a busy hour, and never without a band', async () => {
    for (const queue of Object.values(queues)) await fillQueue(stack.broker, queue, 50);
    const rule = await stack.addRule({
      name: 'unusual depth',
      kind: 'queue-depth-baseline',
      subjects: `${prefix}.*`,
      threshold: 5,
      forSeconds: 0,
    });
    const firing = await waitFor('the quiet queue to fire', async () =>
      (await stack.alertRows(rule)).find((a: { state: string }) => a.state === 'firing'),
    );
    expect(firing).toMatchObject({ subject: queues.quiet, value: 50 });
    // A few more ticks: the busy queue (usual top 200) and the young one (no band) stay calm.
    const ticks = stack.transitions.length;
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect((await stack.alertRows(rule)).map((a: { subject: string }) => a.subject)).toEqual([queues.quiet]);
    expect(stack.transitions.slice(ticks).every((t) => t.alert.subject === queues.quiet)).toBe(true);

    // The rule's test says what each queue reads against, and why the young one has no band.
    const test = await stack.bus.request(
      ownerRpcs.alertRuleTest,
      {
        clusterId: stack.cluster.id,
        rule: CreateAlertRuleRequestSchema.parse({
          name: 'draft',
          kind: 'queue-depth-baseline',
          subjects: `${prefix}.*`,
          threshold: 5,
        }),
      },
      { key: stack.cluster.id, timeoutMs: 5_000 },
    );
    expect(test.readings).toEqual([
      { subject: queues.quiet, holds: true, value: 50 },
      {
        subject: queues.young,
        holds: null,
        value: 50,
        why: '3 days of history, 0 of the last 4 weeks seen at this hour: a band needs 2',
      },
      { subject: queues.busy, holds: false, value: 50 },
    ]);
    await stack.db.query(`UPDATE alert_rule SET enabled = false WHERE id = $1`, [rule]);
    for (const queue of Object.values(queues)) await drainQueue(stack.broker, queue);
  });
});
