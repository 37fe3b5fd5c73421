import {
  AddressMetricsResponseSchema,
  MetricsResponseSchema,
  type MetricsResponse,
} from '@artemis-studio/contracts';
import {
  addTickTotals,
  createDataSource,
  NODE_ROLLUP_RESOLUTIONS_S,
  rollUpHistory,
} from '@artemis-studio/db';
import {
  insertCluster,
  signIn,
  spawnService,
  testDatabaseUrl,
  type ApiSession,
  type ServiceProcess,
} from '@artemis-studio/testing';
import type { DataSource } from 'typeorm';

/** A cluster's queue state and history against real PostgreSQL: filters, downsampling, bounds, bad input. */
describe('GET …/queues and …/metrics against real PostgreSQL', () => {
  let db: DataSource;
  let gateway: ServiceProcess;
  let api: ApiSession;
  let clusterId: string;
  let cluster: { id: string; nodeIds: string[] };
  // Within the samples' retention whenever the suite runs, on a whole hour so buckets align.
  const T0 = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3 * 3_600_000;
  const SAMPLE_MS = 15_000;
  const QUEUE = 'orders.in';

  const get = async (path: string) => {
    const response = await api.fetch(`${gateway.url}/api/v1/clusters/${clusterId}${path}`);
    return { status: response.status, body: (await response.json()) as unknown };
  };
  const metrics = async (path: string): Promise<MetricsResponse> => {
    const { status, body } = await get(path);
    expect(status).toBe(200);
    return MetricsResponseSchema.parse(body);
  };
  const iso = (ms: number) => new Date(ms).toISOString();

  beforeAll(async () => {
    db = await createDataSource({ url: testDatabaseUrl(), poolSize: 2 }).initialize();
    cluster = await insertCluster(db, {
      nodes: [
        { name: 'a', jolokiaUrl: 'http://127.0.0.1:1/console/jolokia' },
        { name: 'b', jolokiaUrl: 'http://127.0.0.1:2/console/jolokia' },
      ],
    });
    clusterId = cluster.id;
    // Two hours of tier-B samples on both nodes. Node a: depth i % 50, 10 messages added per
    // sample, a broker restart (counters from zero) at sample 200. Node b: depth 5, nothing moves.
    const rows: unknown[][] = [];
    for (let i = 0; i < 480; i++) {
      const t = new Date(T0 + i * SAMPLE_MS);
      const added = i < 200 ? 1000 + 10 * i : 10 * (i - 200 + 1);
      rows.push([t, clusterId, cluster.nodeIds[0], QUEUE, i % 50, added, added, i % 3]);
      rows.push([t, clusterId, cluster.nodeIds[1], QUEUE, 5, 7, 7, 1]);
      rows.push([t, clusterId, cluster.nodeIds[0], 'other', 100, 0, 0, 0]);
    }
    await db.query(
      `INSERT INTO metric_sample (sampled_at, cluster_id, node_id, queue, message_count, messages_added,
                                  messages_acknowledged, consumer_count)
       SELECT * FROM unnest($1::timestamptz[], $2::uuid[], $3::uuid[], $4::text[], $5::bigint[], $6::bigint[],
                            $7::bigint[], $8::int[])`,
      rows[0].map((_, column) => rows.map((r) => r[column])),
    );
    // Node a's connections for the first hour: i % 7 at tier-A sample i (every 15 s). Node b: none sampled.
    await db.query(
      `INSERT INTO node_sample (sampled_at, cluster_id, node_id, connection_count, disk_usage, disk_limit,
                               memory_bytes, memory_limit_bytes)
       SELECT to_timestamp($1::float8 / 1000) + make_interval(secs => i * 15), $2, $3, i % 7,
              0.5 + i / 1000.0, 0.9, 1000 * i, 1000000
         FROM generate_series(0, 239) AS i`,
      [T0, clusterId, cluster.nodeIds[0]],
    );
    // Queue 'aged' on node a for two minutes: i messages in delivery at sample i, its oldest message
    // sent a minute before T0 until sample 5, then none dated (drained); deleted at sample 8.
    await db.query(
      `INSERT INTO metric_sample (sampled_at, cluster_id, node_id, queue, message_count, messages_added,
                                  messages_acknowledged, consumer_count, delivering_count, first_message_at, ended)
       SELECT to_timestamp($1::float8 / 1000) + make_interval(secs => i * 15), $2::uuid, $3::uuid, 'aged', 10, 0, 0, 1, i,
              CASE WHEN i <= 5 THEN to_timestamp($1::float8 / 1000) - interval '60 seconds' END, i = 8
         FROM generate_series(0, 8) AS i`,
      [T0, clusterId, cluster.nodeIds[0]],
    );
    // Address orders.in for the first 10 minutes, as the scraper writes it (ADR-0022): node a fills
    // 1 KB per tick and pages from tick 30, its limit percentage unknown for the first 4 ticks; node
    // b holds 500 bytes, 4%, sampled when first read and when read again. Neither node's addresses
    // were read in minute 8 (ticks 32..35, ended at 32): a gap, not a zero, though its queues were.
    await db.query(
      `INSERT INTO address_sample (sampled_at, cluster_id, node_id, address, size_bytes, paging, pages, limit_percent,
                                   ended)
       SELECT to_timestamp($1::float8 / 1000) + make_interval(secs => i * 15), $2::uuid, $3::uuid, $5::text,
              1000 * i, i >= 30, greatest(i - 29, 0), CASE WHEN i >= 4 THEN least(i, 101) END, i = 32
         FROM generate_series(0, 39) AS i WHERE i NOT BETWEEN 33 AND 35
       UNION ALL
       SELECT to_timestamp($1::float8 / 1000) + make_interval(secs => i * 15), $2::uuid, $4::uuid, $5::text, 500, false,
              0, 4, i = 32
         FROM unnest(ARRAY[0, 32, 36]) AS i`,
      [T0, clusterId, cluster.nodeIds[0], cluster.nodeIds[1], QUEUE],
    );
    // Each node's queues were read at every one of those samples (ADR-0019: a sample holds at its
    // node's ticks until the next), as the migration dates the history kept before ticks were.
    await db.query(
      `INSERT INTO queue_tick (ticked_at, cluster_id, node_id)
       SELECT DISTINCT sampled_at, cluster_id, node_id FROM metric_sample WHERE cluster_id = $1`,
      [clusterId],
    );
    /** A queue sampled once and ended later, both at seconds after T0, its figures unchanged. */
    const sampledThenEnded = (node: string, queue: string, depth: number, consumers: number, at: number[]) =>
      db.query(
        `INSERT INTO metric_sample (sampled_at, cluster_id, node_id, queue, message_count, messages_added,
                                    messages_acknowledged, consumer_count, ended)
         SELECT to_timestamp($1::float8 / 1000) + make_interval(secs => t.s), $2, $3, $4, $5, 0, 0, $6, t.i = 2
           FROM unnest($7::float8[]) WITH ORDINALITY AS t(s, i)`,
        [T0, clusterId, node, queue, depth, consumers, at],
      );
    // Queue 'flat' on node b, sampled once at minute 90 (7 messages) and ended at minute 110 (its
    // node no longer live); node b's queues went unread through minute 100.
    await sampledThenEnded(cluster.nodeIds[1], 'flat', 7, 1, [90 * 60, 110 * 60]);
    // Queue 'brief' on node a, sampled at 30:45 and ended at 31:05, off its node's ticks (its
    // node no longer live): it held at the tick of 31:00 too.
    await sampledThenEnded(cluster.nodeIds[0], 'brief', 3, 0, [30 * 60 + 45, 31 * 60 + 5]);
    await db.query(
      `DELETE FROM queue_tick WHERE node_id = $1 AND ticked_at >= to_timestamp($2::float8 / 1000) + interval '100 minutes'
                                AND ticked_at < to_timestamp($2::float8 / 1000) + interval '101 minutes'`,
      [cluster.nodeIds[1], T0],
    );
    // Each tick with its node's queue totals, as the scraper writes them (ADR-0020); no rollups yet.
    await addTickTotals(db, clusterId);
    gateway = await spawnService('gateway', 18490);
    api = await signIn(gateway.url);
  }, 60_000);

  afterAll(async () => {
    await gateway?.stop();
    await db.query(`DELETE FROM queue_snapshot WHERE cluster_id = $1`, [clusterId]);
    await db.query(`DELETE FROM cluster WHERE id = $1`, [clusterId]);
    await db.query(`DELETE FROM metric_sample WHERE cluster_id = $1`, [clusterId]);
    await db.query(`DELETE FROM queue_tick WHERE cluster_id = $1`, [clusterId]);
    await db.query(`DELETE FROM node_rollup WHERE cluster_id = $1`, [clusterId]);
    await db.query(`DELETE FROM node_sample WHERE cluster_id = $1`, [clusterId]);
    await db.query(`DELETE FROM address_sample WHERE cluster_id = $1`, [clusterId]);
    await db.destroy();
  });

  it('puts a queue in buckets of the step: peak depth, counted messages, per node and in total', async () => {
    const from = T0 + 10 * 60_000;
    const body = await metrics(
      `/queues/${QUEUE}/metrics?from=${iso(from)}&to=${iso(from + 30 * 60_000)}&step=60000`,
    );
    expect(body.stepMs).toBe(60_000);
    expect(body.series.map((s) => s.node)).toEqual(['total', 'a', 'b']);
    const [total, a, b] = body.series;
    expect(a.points).toHaveLength(30);
    expect(a.points[0].t).toBe(iso(from));
    // Minute 10 holds samples 40..43: depths 40..43, 10 added per sample, counted from sample 39.
    expect(a.points[0]).toMatchObject({ depth: 43, added: 40, acknowledged: 40, consumers: 2 });
    expect(b.points[0]).toMatchObject({ depth: 5, added: 0, consumers: 1 });
    expect(total.points[0]).toMatchObject({ depth: 48, added: 40, consumers: 3 });
    // 'other' is another queue: none of its 100 messages appear.
    expect(Math.max(...total.points.map((p) => p.depth))).toBeLessThan(100);
  });

  it("holds a queue's last sample at each tick of its node until the next, and knows nothing without ticks", async () => {
    const from = T0 + 88 * 60_000;
    const body = await metrics(
      `/queues/flat/metrics?from=${iso(from)}&to=${iso(from + 24 * 60_000)}&step=60000`,
    );
    const b = body.series.find((s) => s.node === 'b')!;
    const minutes = b.points.map((p) => (new Date(p.t).getTime() - T0) / 60_000);
    // Not known before its first sample, nor in minute 100 (unread), nor once ended at minute 110.
    expect(minutes).toEqual([
      ...Array.from({ length: 10 }, (_, i) => 90 + i),
      ...Array.from({ length: 9 }, (_, i) => 101 + i),
    ]);
    for (const p of b.points) expect(p).toMatchObject({ depth: 7, consumers: 1, added: 0 });
    expect(body.series[0].points.map((p) => p.depth)).toEqual(b.points.map((p) => p.depth));
  });

  it("holds a sample at its node's next tick when its series ends before the tick after", async () => {
    const from = T0 + 30 * 60_000;
    const body = await metrics(
      `/queues/brief/metrics?from=${iso(from)}&to=${iso(from + 3 * 60_000)}&step=60000`,
    );
    const a = body.series.find((s) => s.node === 'a')!;
    expect(a.points.map((p) => [(new Date(p.t).getTime() - T0) / 60_000, p.depth])).toEqual([
      [30, 3],
      [31, 3],
    ]);
  });

  it('counts across a broker restart instead of going negative', async () => {
    // Sample 200 (minute 50) restarts node a's counters at 10.
    const from = T0 + 49 * 60_000;
    const body = await metrics(
      `/queues/${QUEUE}/metrics?from=${iso(from)}&to=${iso(from + 2 * 60_000)}&step=60000`,
    );
    const a = body.series.find((s) => s.node === 'a')!;
    expect(a.points.map((p) => p.added)).toEqual([40, 40]);
  });

  it('keeps to at most a thousand points whatever step is asked for', async () => {
    const body = await metrics(
      `/queues/${QUEUE}/metrics?from=${iso(T0)}&to=${iso(T0 + 2 * 3_600_000)}&step=1000`,
    );
    expect(body.stepMs).toBe(7200);
    for (const series of body.series) expect(series.points.length).toBeLessThanOrEqual(1000);
    expect(body.series[0].points.reduce((n, p) => n + p.added, 0)).toBe(10 * 479);
  });

  it('sums every queue for the cluster series', async () => {
    const from = T0 + 10 * 60_000;
    const body = await metrics(`/metrics?from=${iso(from)}&to=${iso(from + 60_000)}&step=60000`);
    expect(body.series[0]).toMatchObject({ node: 'total', points: [{ depth: 148, consumers: 3 }] });
  });

  it("carries each node's peak connections on the cluster series, and none on a queue's", async () => {
    // Minute 59 holds node a's samples 236..239 (connections 5, 6, 0, 1); minute 60 has none.
    const from = T0 + 59 * 60_000;
    const cluster = await metrics(`/metrics?from=${iso(from)}&to=${iso(from + 2 * 60_000)}&step=60000`);
    const of = (node: string) =>
      cluster.series.find((s) => s.node === node)!.points.map((p) => p.connections);
    expect(of('a')).toEqual([6, null]);
    expect(of('b')).toEqual([null, null]);
    expect(of('total')).toEqual([6, null]);
    const queue = await metrics(
      `/queues/${QUEUE}/metrics?from=${iso(from)}&to=${iso(from + 60_000)}&step=60000`,
    );
    expect(queue.series[0].points[0]).not.toHaveProperty('connections');
  });

  it("puts an address's figures in buckets: peaks per node, the fullest node's percentage in total", async () => {
    const { status, body } = await get(
      `/addresses/${QUEUE}/metrics?from=${iso(T0)}&to=${iso(T0 + 10 * 60_000)}&step=60000`,
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
    expect(a.points.map((p) => new Date(p.t).getTime())).not.toContain(T0 + 8 * 60_000);
    expect(a.points.at(-1)).toMatchObject({ t: iso(T0 + 9 * 60_000), sizeBytes: 39_000 });
    // Node b's one sample held at every tick until the end, and its next one after.
    expect(b.points.map((p) => (new Date(p.t).getTime() - T0) / 60_000)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 9]);
  });

  it("charts a queue's messages in delivery and how long its oldest message has waited, unknown once none is dated", async () => {
    const body = await metrics(`/queues/aged/metrics?from=${iso(T0)}&to=${iso(T0 + 3 * 60_000)}&step=60000`);
    // Minute 0 holds samples 0..3, minute 1 samples 4..7 (dated until sample 5, at 75 s).
    expect(body.series[0].points.map((p) => [p.delivering, p.oldestSeconds])).toEqual([
      [3, 105],
      [7, 135],
    ]);
    // Samples from before these figures were kept read as unknown, not 0.
    const old = await metrics(`/queues/${QUEUE}/metrics?from=${iso(T0)}&to=${iso(T0 + 60_000)}&step=60000`);
    expect(old.series[0].points[0]).toMatchObject({ delivering: null, oldestSeconds: null });
  });

  it("reads a cluster's series from its nodes' rollups as from their ticks, and a long range from the rollups", async () => {
    const twoHours = `/metrics?from=${iso(T0)}&to=${iso(T0 + 2 * 3_600_000)}&step=120000`;
    const fromTicks = await metrics(twoHours);
    try {
      for (const resolution of NODE_ROLLUP_RESOLUTIONS_S) await rollUpHistory(db, resolution, clusterId);
      const fromMinutes = await metrics(twoHours);
      expect(fromMinutes).toEqual(fromTicks);
      // Minutes 10 and 11 in total: node a's queues at 140..147 (orders.in at 40..47, other at 100), node b's at 5.
      expect(fromMinutes.series[0].points[5]).toMatchObject({ depth: 152, depthMin: 145, depthLast: 152 });
      // A week: from the minutes, the step raised to whole minutes, the same messages counted.
      const week = await metrics(`/metrics?from=${iso(T0 - 6 * 86_400_000)}&to=${iso(T0 + 86_400_000)}`);
      expect(week.stepMs).toBe(660_000);
      const counted = (body: MetricsResponse) => body.series[0].points.reduce((n, p) => n + p.added, 0);
      expect(counted(week)).toBe(counted(fromTicks));
      // Without minutes kept that far back, a month is read by the hour.
      await db.query(`DELETE FROM node_rollup WHERE cluster_id = $1 AND resolution_s = 60`, [clusterId]);
      const month = await metrics(`/metrics?from=${iso(T0 - 29 * 86_400_000)}&to=${iso(T0 + 86_400_000)}`);
      expect(month.stepMs).toBe(3_600_000);
      expect(counted(month)).toBe(counted(fromTicks));
    } finally {
      await db.query(`DELETE FROM node_rollup WHERE cluster_id = $1`, [clusterId]);
    }
  });

  it("carries each node's disk and address memory on its series of the cluster's, not on the total", async () => {
    // Minute 59 holds node a's samples 236..239.
    const from = T0 + 59 * 60_000;
    const body = await metrics(`/metrics?from=${iso(from)}&to=${iso(from + 60_000)}&step=60000`);
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
      cluster.nodeIds[0],
      clusterId,
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
    await db.query(
      `INSERT INTO queue_snapshot (node_id, cluster_id, name, address, routing_type, consumer_count, observed_at,
         changed_at, message_count, delivering_count, messages_added, messages_acknowledged, messages_expired,
         messages_killed, paused, durable, temporary)
       SELECT n, c, q, a, r, k, now(), now() - interval '1 minute', 0, 0, 0, 0, 0, 0, false, true, false
         FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::int[]) AS t(n, c, q, a, r, k)`,
      rows[0].map((_, column) => rows.map((r) => r[column])),
    );
    const names = async (query: string) =>
      ((await get(`/queues?pageSize=500&${query}`)).body as { items: { name: string }[] }).items.map(
        (q) => q.name,
      );
    expect(await names('kind=dlq')).toEqual(['DLQ', 'orders.dead-letter']);
    expect(await names('kind=expiry')).toEqual(['ExpiryQueue']);
    expect(await names('routingType=MULTICAST')).toEqual(['prices.a', 'prices.b']);
    expect(await names('consumers=with')).toEqual(['orders.in', 'prices.a']);
    expect(await names('address=prices&consumers=without')).toEqual(['prices.b']);
    expect((await names('sort=consumerCount&order=desc'))[0]).toBe('orders.in');
    await db.query(
      `UPDATE queue_snapshot SET added_per_second = CASE name WHEN 'orders.in' THEN 12.5 WHEN 'DLQ' THEN 0.5 END
        WHERE cluster_id = $1`,
      [clusterId],
    );
    // Unknown rates come last whichever way the column is sorted.
    for (const order of ['desc', 'asc'])
      expect((await names(`kind=dlq&sort=addedPerSecond&order=${order}`)).at(-1)).toBe('orders.dead-letter');
    const [fastest] = ((await get('/queues?sort=addedPerSecond&order=desc')).body as { items: unknown[] })
      .items;
    expect(fastest).toMatchObject({ name: 'orders.in', addedPerSecond: 12.5, killedPerSecond: null });
    const [first] = ((await get('/queues?search=orders.in')).body as { items: { changedAt: string }[] })
      .items;
    expect(Date.parse(first.changedAt)).toBeLessThan(Date.now() - 30_000);
    expect((await get('/queues?kind=poison')).status).toBe(400);
  });

  it("says a quiet queue was read at its node's last tick, and one left unread when it last was", async () => {
    // Written ten minutes ago and unchanged since (not rewritten, ADR-0019); node b ticked 5 s ago.
    await db.query(
      `INSERT INTO queue_snapshot (node_id, cluster_id, name, address, routing_type, consumer_count, observed_at,
         changed_at, sampled_at, message_count, delivering_count, messages_added, messages_acknowledged,
         messages_expired, messages_killed, paused, durable, temporary)
       SELECT $1, $2, q, q, 'ANYCAST', 0, now() - interval '10 minutes', now() - interval '1 hour',
              CASE WHEN q = 'quiet' THEN now() - interval '10 minutes' END, 0, 0, 0, 0, 0, 0, false, true, false
         FROM unnest(ARRAY['quiet', 'unread']) AS q`,
      [cluster.nodeIds[1], clusterId],
    );
    await db.query(
      `INSERT INTO queue_tick (ticked_at, cluster_id, node_id) VALUES (now() - interval '5 seconds', $1, $2)`,
      [clusterId, cluster.nodeIds[1]],
    );
    const readAt = async (name: string) => {
      const { items } = (await get(`/queues?search=${name}`)).body as {
        items: { name: string; observedAt: string }[];
      };
      return Date.now() - Date.parse(items.find((q) => q.name === name)!.observedAt);
    };
    expect(await readAt('quiet')).toBeLessThan(60_000);
    expect(await readAt('unread')).toBeGreaterThan(9 * 60_000);
    const sorted = (
      (await get('/queues?sort=observedAt&order=desc&pageSize=500')).body as { items: { name: string }[] }
    ).items;
    expect(sorted.findIndex((q) => q.name === 'quiet')).toBeLessThan(
      sorted.findIndex((q) => q.name === 'unread'),
    );
  });

  it('names the queues filling fastest over the window, and only those growing', async () => {
    const sample = (minutesAgo: number, queue: string, depth: number) =>
      db.query(
        `INSERT INTO metric_sample (sampled_at, cluster_id, node_id, queue, message_count, messages_added,
                                    messages_acknowledged, consumer_count)
         VALUES (now() - make_interval(mins => $1), $2, $3, $4, $5, 0, 0, 0)`,
        [minutesAgo, clusterId, cluster.nodeIds[1], queue, depth],
      );
    await sample(10, 'growing.fast', 5);
    await sample(1, 'growing.fast', 305);
    await sample(10, 'growing.slow', 5);
    await sample(1, 'growing.slow', 15);
    await sample(10, 'draining', 300);
    await sample(1, 'draining', 0);
    const { status, body } = await get('/queues/growth?window=900000&limit=5');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      windowMs: 900_000,
      items: [
        { queue: 'growing.fast', node: 'b', depth: 305, growth: 300 },
        { queue: 'growing.slow', node: 'b', depth: 15, growth: 10 },
      ],
    });
    expect((await get('/queues/growth?window=10')).status).toBe(400);
  });

  it.each([
    [
      'an inverted range',
      `/queues/${QUEUE}/metrics?from=2026-11-30T10:00:00Z&to=2026-11-30T09:00:00Z`,
      400,
      'INVALID_RANGE',
    ],
    [
      'a range of years',
      `/queues/${QUEUE}/metrics?from=2020-01-01T00:00:00Z&to=2026-11-30T09:00:00Z`,
      400,
      'INVALID_RANGE',
    ],
    ['a step that is not a number', `/queues/${QUEUE}/metrics?step=fast`, 400, 'VALIDATION_FAILED'],
    ['a time that is not an instant', `/queues/${QUEUE}/metrics?from=yesterday`, 400, 'VALIDATION_FAILED'],
    ['an unknown parameter', `/queues/${QUEUE}/metrics?window=1h`, 400, 'VALIDATION_FAILED'],
    ['an unknown queue', `/queues/no.such.queue/metrics`, 404, 'QUEUE_NOT_FOUND'],
    ['an unknown address', `/addresses/no.such.address/metrics`, 404, 'ADDRESS_NOT_FOUND'],
    [
      'an inverted address range',
      `/addresses/${QUEUE}/metrics?from=2026-11-30T10:00:00Z&to=2026-11-30T09:00:00Z`,
      400,
      'INVALID_RANGE',
    ],
  ])('refuses %s with a clear error', async (_what, path, status, code) => {
    const response = await get(path);
    expect(response.status).toBe(status);
    expect(response.body).toMatchObject({ error: { code, message: expect.any(String) } });
  });
});
