import { QueueBaselineResponseSchema } from '@artemis-studio/contracts';
import { QueueStateStack } from './queue-state-stack.fixture';

describe('GET …/queues and …/metrics against real PostgreSQL', () => {
  const stack = new QueueStateStack();

  beforeAll(() => stack.start(), 60_000);
  afterAll(() => stack.stop());

  it('puts a queue in buckets of the step: peak depth, counted messages, per node and in total', async () => {
    const from = stack.T0 + 10 * 60_000;
    const body = await stack.metrics(
      `/queues/${stack.QUEUE}/metrics?from=${stack.iso(from)}&to=${stack.iso(from + 30 * 60_000)}&step=60000`,
    );
    expect(body.stepMs).toBe(60_000);
    expect(body.series.map((s) => s.node)).toEqual(['total', 'a', 'b']);
    const [total, a, b] = body.series;
    expect(a.points).toHaveLength(30);
    expect(a.points[0].t).toBe(stack.iso(from));
    // Minute 10 holds samples 40..43: depths 40..43, 10 added per sample, counted from sample 39.
    expect(a.points[0]).toMatchObject({ depth: 43, added: 40, acknowledged: 40, consumers: 2 });
    expect(b.points[0]).toMatchObject({ depth: 5, added: 0, consumers: 1 });
    expect(total.points[0]).toMatchObject({ depth: 48, added: 40, consumers: 3 });
    // 'other' is another queue: none of its 100 messages appear.
    expect(Math.max(...total.points.map((p) => p.depth))).toBeLessThan(100);
  });

  it("holds a queue's last sample at each tick of its node until the next, and knows nothing without ticks", async () => {
    const from = stack.T0 + 88 * 60_000;
    const body = await stack.metrics(
      `/queues/flat/metrics?from=${stack.iso(from)}&to=${stack.iso(from + 24 * 60_000)}&step=60000`,
    );
    const b = body.series.find((s) => s.node === 'b')!;
    const minutes = b.points.map((p) => (new Date(p.t).getTime() - stack.T0) / 60_000);
    // Not known before its first sample, nor in minute 100 (unread), nor once ended at minute 110.
    expect(minutes).toEqual([
      ...Array.from({ length: 10 }, (_, i) => 90 + i),
      ...Array.from({ length: 9 }, (_, i) => 101 + i),
    ]);
    for (const p of b.points) expect(p).toMatchObject({ depth: 7, consumers: 1, added: 0 });
    expect(body.series[0].points.map((p) => p.depth)).toEqual(b.points.map((p) => p.depth));
  });

  it("holds a sample at its node's next tick when its series ends before the tick after", async () => {
    const from = stack.T0 + 30 * 60_000;
    const body = await stack.metrics(
      `/queues/brief/metrics?from=${stack.iso(from)}&to=${stack.iso(from + 3 * 60_000)}&step=60000`,
    );
    const a = body.series.find((s) => s.node === 'a')!;
    expect(a.points.map((p) => [(new Date(p.t).getTime() - stack.T0) / 60_000, p.depth])).toEqual([
      [30, 3],
      [31, 3],
    ]);
  });

  it('counts across a broker restart instead of going negative', async () => {
    // Sample 200 (minute 50) restarts node a's counters at 10.
    const from = stack.T0 + 49 * 60_000;
    const body = await stack.metrics(
      `/queues/${stack.QUEUE}/metrics?from=${stack.iso(from)}&to=${stack.iso(from + 2 * 60_000)}&step=60000`,
    );
    const a = body.series.find((s) => s.node === 'a')!;
    expect(a.points.map((p) => p.added)).toEqual([40, 40]);
  });

  it('keeps to at most a thousand points whatever step is asked for', async () => {
    const body = await stack.metrics(
      `/queues/${stack.QUEUE}/metrics?from=${stack.iso(stack.T0)}&to=${stack.iso(stack.T0 + 2 * 3_600_000)}&step=1000`,
    );
    expect(body.stepMs).toBe(7200);
    for (const series of body.series) expect(series.points.length).toBeLessThanOrEqual(1000);
    expect(body.series[0].points.reduce((n, p) => n + p.added, 0)).toBe(10 * 479);
  });

  it('sums every queue for the cluster series', async () => {
    const from = stack.T0 + 10 * 60_000;
    const body = await stack.metrics(
      `/metrics?from=${stack.iso(from)}&to=${stack.iso(from + 60_000)}&step=60000`,
    );
    expect(body.series[0]).toMatchObject({ node: 'total', points: [{ depth: 148, consumers: 3 }] });
  });

  it("carries each node's peak connections on the cluster series, and none on a queue's", async () => {
    // Minute 59 holds node a's samples 236..239 (connections 5, 6, 0, 1); minute 60 has none.
    const from = stack.T0 + 59 * 60_000;
    const cluster = await stack.metrics(
      `/metrics?from=${stack.iso(from)}&to=${stack.iso(from + 2 * 60_000)}&step=60000`,
    );
    const of = (node: string) =>
      cluster.series.find((s) => s.node === node)!.points.map((p) => p.connections);
    expect(of('a')).toEqual([6, null]);
    expect(of('b')).toEqual([null, null]);
    expect(of('total')).toEqual([6, null]);
    const queue = await stack.metrics(
      `/queues/${stack.QUEUE}/metrics?from=${stack.iso(from)}&to=${stack.iso(from + 60_000)}&step=60000`,
    );
    expect(queue.series[0].points[0]).not.toHaveProperty('connections');
  });

  it("draws a queue's usual band from its past weeks' hours, and says why another has none", async () => {
    // Fifteen days of hours at a peak of 10, up to T0: two weeks seen at every hour from T0 on.
    await stack.db.query(
      `INSERT INTO queue_hour (cluster_id, queue, hour, depth_peak)
       SELECT $1, $2, h, 10 FROM generate_series($3::timestamptz - interval '15 days',
                                                 $3::timestamptz - interval '1 hour', interval '1 hour') h`,
      [stack.clusterId, stack.QUEUE, new Date(stack.T0)],
    );
    try {
      const range = `from=${stack.iso(stack.T0)}&to=${stack.iso(stack.T0 + 2 * 3_600_000)}`;
      const { status, body } = await stack.get(`/queues/${stack.QUEUE}/baseline?${range}`);
      expect(status).toBe(200);
      const band = { low: 10, usual: 10, high: 10, weeks: 2 };
      expect(QueueBaselineResponseSchema.parse(body)).toMatchObject({
        hours: [
          { t: stack.iso(stack.T0), ...band },
          { t: stack.iso(stack.T0 + 3_600_000), ...band },
        ],
        why: null,
      });
      const other = await stack.get(`/queues/other/baseline?${range}`);
      expect(other.body).toMatchObject({
        hours: [],
        why: expect.stringMatching(/no history of this queue yet/),
      });
      expect((await stack.get(`/queues/nowhere/baseline?${range}`)).status).toBe(404);
    } finally {
      await stack.db.query(`DELETE FROM queue_hour WHERE cluster_id = $1`, [stack.clusterId]);
    }
  });
});
