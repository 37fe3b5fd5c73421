import { AddressMetricsResponseSchema, type MetricsResponse } from '@artemis-studio/contracts';
import { NODE_ROLLUP_RESOLUTIONS_S, rollUpHistory } from '@artemis-studio/db';
import { QueueStateStack } from './queue-state-stack.fixture';

describe("a cluster's and an address's series, and the queue list, against real PostgreSQL", () => {
  const stack = new QueueStateStack();

  beforeAll(() => stack.start(), 60_000);
  afterAll(() => stack.stop());

  it("puts an address's figures in buckets: peaks per node, the fullest node's percentage in total", async () => {
    const { status, body } = await stack.get(
      `/addresses/${stack.QUEUE}/metrics?from=${stack.iso(stack.T0)}&to=${stack.iso(stack.T0 + 10 * 60_000)}&step=60000`,
    );
    expect(status).toBe(200);
    const { series } = AddressMetricsResponseSchema.parse(body);
    expect(series.map((s) => s.node)).toEqual(['total', 'a', 'b']);
    const [total, a, b] = series;
    // Minute 0 holds samples 0..3 of node a: no percentage known yet.
    expect(a.points[0]).toMatchObject({ sizeBytes: 3000, pages: 0, limitPercent: null, paging: false });
    expect(total.points[0]).toMatchObject({ sizeBytes: 3500, limitPercent: 4, paging: false });
    // Minute 7 holds samples 28..31: paging from 30, two pages by 31.
    expect(a.points[7]).toMatchObject({ sizeBytes: 31_000, pages: 2, limitPercent: 31, paging: true });
    expect(b.points[7]).toMatchObject({ sizeBytes: 500, limitPercent: 4, paging: false });
    expect(total.points[7]).toMatchObject({ sizeBytes: 31_500, pages: 2, limitPercent: 31, paging: true });
    // Minute 8 was not sampled: no point at all; minute 9 is there again.
    expect(a.points.map((p) => new Date(p.t).getTime())).not.toContain(stack.T0 + 8 * 60_000);
    expect(a.points.at(-1)).toMatchObject({ t: stack.iso(stack.T0 + 9 * 60_000), sizeBytes: 39_000 });
    // Node b's one sample held at every tick until the end, and its next one after.
    expect(b.points.map((p) => (new Date(p.t).getTime() - stack.T0) / 60_000)).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, 9,
    ]);
  });

  it("charts a queue's messages in delivery and how long its oldest message has waited, unknown once none is dated", async () => {
    const body = await stack.metrics(
      `/queues/aged/metrics?from=${stack.iso(stack.T0)}&to=${stack.iso(stack.T0 + 3 * 60_000)}&step=60000`,
    );
    // Minute 0 holds samples 0..3, minute 1 samples 4..7 (dated until sample 5, at 75 s).
    expect(body.series[0].points.map((p) => [p.delivering, p.oldestSeconds])).toEqual([
      [3, 105],
      [7, 135],
    ]);
    // Samples from before these figures were kept read as unknown, not 0.
    const old = await stack.metrics(
      `/queues/${stack.QUEUE}/metrics?from=${stack.iso(stack.T0)}&to=${stack.iso(stack.T0 + 60_000)}&step=60000`,
    );
    expect(old.series[0].points[0]).toMatchObject({ delivering: null, oldestSeconds: null });
  });

  it("reads a cluster's series from its nodes' rollups as from their ticks, and a long range from the rollups", async () => {
    const twoHours = `/metrics?from=${stack.iso(stack.T0)}&to=${stack.iso(stack.T0 + 2 * 3_600_000)}&step=120000`;
    const fromTicks = await stack.metrics(twoHours);
    try {
      for (const resolution of NODE_ROLLUP_RESOLUTIONS_S)
        await rollUpHistory(stack.db, resolution, stack.clusterId);
      const fromMinutes = await stack.metrics(twoHours);
      expect(fromMinutes).toEqual(fromTicks);
      // Minutes 10 and 11 in total: node a's queues at 140..147 (orders.in at 40..47, other at 100), node b's at 5.
      expect(fromMinutes.series[0].points[5]).toMatchObject({ depth: 152, depthMin: 145, depthLast: 152 });
      // A week: from the minutes, the step raised to whole minutes, the same messages counted.
      const week = await stack.metrics(
        `/metrics?from=${stack.iso(stack.T0 - 6 * 86_400_000)}&to=${stack.iso(stack.T0 + 86_400_000)}`,
      );
      expect(week.stepMs).toBe(660_000);
      const counted = (body: MetricsResponse) => body.series[0].points.reduce((n, p) => n + p.added, 0);
      expect(counted(week)).toBe(counted(fromTicks));
      // Without minutes kept that far back, a month is read by the hour.
      await stack.db.query(`DELETE FROM node_rollup WHERE cluster_id = $1 AND resolution_s = 60`, [
        stack.clusterId,
      ]);
      const month = await stack.metrics(
        `/metrics?from=${stack.iso(stack.T0 - 29 * 86_400_000)}&to=${stack.iso(stack.T0 + 86_400_000)}`,
      );
      expect(month.stepMs).toBe(3_600_000);
      expect(counted(month)).toBe(counted(fromTicks));
    } finally {
      await stack.db.query(`DELETE FROM node_rollup WHERE cluster_id = $1`, [stack.clusterId]);
    }
  });

  it("carries each node's disk and address memory on its series of the cluster's, not on the total", async () => {
    // Minute 59 holds node a's samples 236..239.
    const from = stack.T0 + 59 * 60_000;
    const body = await stack.metrics(
      `/metrics?from=${stack.iso(from)}&to=${stack.iso(from + 60_000)}&step=60000`,
    );
    const a = body.series.find((s) => s.node === 'a')!.points[0];
    expect(a.diskUsage).toBeCloseTo(0.739, 5);
    expect(a).toMatchObject({
      diskLimit: expect.closeTo(0.9, 5),
      memoryBytes: 239_000,
      memoryLimitBytes: 1_000_000,
    });
    expect(body.series[0].points[0]).not.toHaveProperty('diskUsage');
  });

  it('filters queues by routing type, consumers, address and DLQ- or expiry-looking names', async () => {
    const snapshot = (name: string, routing: string, consumers: number, address = name) => [
      stack.cluster.nodeIds[0],
      stack.clusterId,
      name,
      address,
      routing,
      consumers,
    ];
    const rows = [
      snapshot('orders.in', 'ANYCAST', 2),
      snapshot('DLQ', 'ANYCAST', 0),
      snapshot('orders.dead-letter', 'ANYCAST', 0),
      snapshot('ExpiryQueue', 'ANYCAST', 0),
      snapshot('prices.a', 'MULTICAST', 1, 'prices'),
      snapshot('prices.b', 'MULTICAST', 0, 'prices'),
    ];
    await stack.db.query(
      `INSERT INTO queue_snapshot (node_id, cluster_id, name, address, routing_type, consumer_count, observed_at,
         changed_at, message_count, delivering_count, messages_added, messages_acknowledged, messages_expired,
         messages_killed, paused, durable, temporary)
       SELECT n, c, q, a, r, k, now(), now() - interval '1 minute', 0, 0, 0, 0, 0, 0, false, true, false
         FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::int[]) AS t(n, c, q, a, r, k)`,
      rows[0].map((_, column) => rows.map((r) => r[column])),
    );
    const names = async (query: string) =>
      ((await stack.get(`/queues?pageSize=500&${query}`)).body as { items: { name: string }[] }).items.map(
        (q) => q.name,
      );
    expect(await names('kind=dlq')).toEqual(['DLQ', 'orders.dead-letter']);
    expect(await names('kind=expiry')).toEqual(['ExpiryQueue']);
    expect(await names('routingType=MULTICAST')).toEqual(['prices.a', 'prices.b']);
    expect(await names('consumers=with')).toEqual(['orders.in', 'prices.a']);
    expect(await names('address=prices&consumers=without')).toEqual(['prices.b']);
    expect((await names('sort=consumerCount&order=desc'))[0]).toBe('orders.in');
    await stack.db.query(
      `UPDATE queue_snapshot SET added_per_second = CASE name WHEN 'orders.in' THEN 12.5 WHEN 'DLQ' THEN 0.5 END
        WHERE cluster_id = $1`,
      [stack.clusterId],
    );
    // Unknown rates come last whichever way the column is sorted.
    for (const order of ['desc', 'asc'])
      expect((await names(`kind=dlq&sort=addedPerSecond&order=${order}`)).at(-1)).toBe('orders.dead-letter');
    const [fastest] = (
      (await stack.get('/queues?sort=addedPerSecond&order=desc')).body as { items: unknown[] }
    ).items;
    expect(fastest).toMatchObject({ name: 'orders.in', addedPerSecond: 12.5, killedPerSecond: null });
    const [first] = ((await stack.get('/queues?search=orders.in')).body as { items: { changedAt: string }[] })
      .items;
    expect(Date.parse(first.changedAt)).toBeLessThan(Date.now() - 30_000);
    expect((await stack.get('/queues?kind=poison')).status).toBe(400);
  });

  it("says a quiet queue was read at its node's last tick, and one left unread when it last was", async () => {
    // Written ten minutes ago and unchanged since (not rewritten, ADR-0019); node b ticked 5 s ago.
    await stack.db.query(
      `INSERT INTO queue_snapshot (node_id, cluster_id, name, address, routing_type, consumer_count, observed_at,
         changed_at, sampled_at, message_count, delivering_count, messages_added, messages_acknowledged,
         messages_expired, messages_killed, paused, durable, temporary)
       SELECT $1, $2, q, q, 'ANYCAST', 0, now() - interval '10 minutes', now() - interval '1 hour',
              CASE WHEN q = 'quiet' THEN now() - interval '10 minutes' END, 0, 0, 0, 0, 0, 0, false, true, false
         FROM unnest(ARRAY['quiet', 'unread']) AS q`,
      [stack.cluster.nodeIds[1], stack.clusterId],
    );
    await stack.db.query(
      `INSERT INTO queue_tick (ticked_at, cluster_id, node_id) VALUES (now() - interval '5 seconds', $1, $2)`,
      [stack.clusterId, stack.cluster.nodeIds[1]],
    );
    const readAt = async (name: string) => {
      const { items } = (await stack.get(`/queues?search=${name}`)).body as {
        items: { name: string; observedAt: string }[];
      };
      return Date.now() - Date.parse(items.find((q) => q.name === name)!.observedAt);
    };
    expect(await readAt('quiet')).toBeLessThan(60_000);
    expect(await readAt('unread')).toBeGreaterThan(9 * 60_000);
    const sorted = (
      (await stack.get('/queues?sort=observedAt&order=desc&pageSize=500')).body as {
        items: { name: string }[];
      }
    ).items;
    expect(sorted.findIndex((q) => q.name === 'quiet')).toBeLessThan(
      sorted.findIndex((q) => q.name === 'unread'),
    );
  });

  it('names the queues filling fastest over the window, and only those growing', async () => {
    const sample = (minutesAgo: number, queue: string, depth: number) =>
      stack.db.query(
        `INSERT INTO metric_sample (sampled_at, cluster_id, node_id, queue, message_count, messages_added,
                                    messages_acknowledged, consumer_count)
         VALUES (now() - make_interval(mins => $1), $2, $3, $4, $5, 0, 0, 0)`,
        [minutesAgo, stack.clusterId, stack.cluster.nodeIds[1], queue, depth],
      );
    await sample(10, 'growing.fast', 5);
    await sample(1, 'growing.fast', 305);
    await sample(10, 'growing.slow', 5);
    await sample(1, 'growing.slow', 15);
    await sample(10, 'draining', 300);
    await sample(1, 'draining', 0);
    const { status, body } = await stack.get('/queues/growth?window=900000&limit=5');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      windowMs: 900_000,
      items: [
        { queue: 'growing.fast', node: 'b', depth: 305, growth: 300 },
        { queue: 'growing.slow', node: 'b', depth: 15, growth: 10 },
      ],
    });
    expect((await stack.get('/queues/growth?window=10')).status).toBe(400);
  });

  it.each([
    [
      'an inverted range',
      `/queues/${stack.QUEUE}/metrics?from=2026-11-30T10:00:00Z&to=2026-11-30T09:00:00Z`,
      400,
      'INVALID_RANGE',
    ],
    [
      'a range of years',
      `/queues/${stack.QUEUE}/metrics?from=2020-01-01T00:00:00Z&to=2026-11-30T09:00:00Z`,
      400,
      'INVALID_RANGE',
    ],
    ['a step that is not a number', `/queues/${stack.QUEUE}/metrics?step=fast`, 400, 'VALIDATION_FAILED'],
    [
      'a time that is not an instant',
      `/queues/${stack.QUEUE}/metrics?from=yesterday`,
      400,
      'VALIDATION_FAILED',
    ],
    ['an unknown parameter', `/queues/${stack.QUEUE}/metrics?window=1h`, 400, 'VALIDATION_FAILED'],
    ['an unknown queue', `/queues/no.such.queue/metrics`, 404, 'QUEUE_NOT_FOUND'],
    ['an unknown address', `/addresses/no.such.address/metrics`, 404, 'ADDRESS_NOT_FOUND'],
    [
      'an inverted address range',
      `/addresses/${stack.QUEUE}/metrics?from=2026-11-30T10:00:00Z&to=2026-11-30T09:00:00Z`,
      400,
      'INVALID_RANGE',
    ],
  ])('refuses %s with a clear error', async (_what, path, status, code) => {
    const response = await stack.get(path);
    expect(response.status).toBe(status);
    expect(response.body).toMatchObject({ error: { code, message: expect.any(String) } });
  });
});
