/**
 * Body filters and paced redrives against the real bench broker (issue 60, ADR-0038):
 *   npm run bench -- body-filters     (BENCH_BODY_MESSAGES=100000, BENCH_BODY_BROWSE: all of them)
 *
 * - Scan: a queue of BENCH_BODY_MESSAGES JSON orders (paged past 2 MB: most of it on disk) read
 *   once over AMQP with a CEL body filter (1% match), against the same read with no evaluation
 *   (a `text` filter the bodies never contain costs a substring search, the least a filter can):
 *   messages/s and broker calls. Goal: the CEL scan within 1.5x of the bare read. And the
 *   management alternative: `browse(page, 200, "")` page after page over the first
 *   BENCH_BODY_BROWSE messages, each page rescanning from the head (and cutting bodies at 256 bytes).
 * - Paced redrive: message jobs at 10, 100 and 1,000 messages a second, each asked for 10 s of
 *   work: the rate they kept. Goal: within 10% of the rate asked.
 */
import { MessageJobRepository, createDataSource } from '@artemis-studio/db';
import { brokerCluster, createTestDatabase, fillQueue, insertCluster } from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import { BrowsingReceiver } from '../services/scraper/src/body-filters/browsing-receiver';
import { compileBodyFilter } from '../services/scraper/src/body-filters/body-filter';
import { scanBodies } from '../services/scraper/src/body-filters/body-scan';
import { BrokerLanes } from '../services/scraper/src/jolokia/broker-lanes';
import { MessageJobs } from '../services/scraper/src/message-jobs/message-jobs';
import { benchBroker } from './support/bench-broker';
import { runBench } from './support/run-bench';

const MESSAGES = Number(process.env.BENCH_BODY_MESSAGES ?? 100_000);
const BROWSED = Number(process.env.BENCH_BODY_BROWSE ?? MESSAGES);
const SCANS = 3;
const RATES = [10, 100, 1_000];
const PACED_SECONDS = 10;
const SCANNED = 'bench.body.scan';

const progress = (step: string) => console.error(`[${new Date().toISOString()}] ${step}`);
const round = (n: number, digits = 1) => Number(n.toFixed(digits));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const order = (i: number) => ({
  message_id: `order-${i}`,
  durable: true,
  application_properties: { region: i % 2 ? 'eu' : 'us' },
  body: JSON.stringify({
    order: i,
    status: i % 100 === 42 ? 'REJECTED' : 'OK',
    lines: [{ sku: `S-${i % 7}` }],
  }),
});

runBench(__filename, async () => {
  progress('starting the bench broker and a database');
  const { broker, node, jolokia, brokerMbean, queueMbean, exec, ensureQueue, removeQueues, clusterOf } =
    await benchBroker();
  const paced = RATES.map((rate) => `bench.body.paced.${rate}`);
  const ours = [SCANNED, ...paced.flatMap((q) => [q, `${q}.to`])];
  await removeQueues(ours);
  await exec(brokerMbean, 'addAddressSettings(java.lang.String,java.lang.String)', [
    'bench.body.#',
    JSON.stringify({
      maxSizeBytes: 2 * 1024 * 1024,
      pageSizeBytes: 512 * 1024,
      addressFullMessagePolicy: 'PAGE',
    }),
  ]);
  progress(`filling ${SCANNED} with ${MESSAGES} JSON orders over AMQP`);
  await ensureQueue(SCANNED);
  await fillQueue(broker, SCANNED, MESSAGES, order);

  const endpoint = { url: node.amqpUrl, credential: { username: broker.user, password: broker.password } };
  /** One pass over the queue with a body filter: time, what it found, and the reads it asked for. */
  const scan = async (match: 'cel' | 'text', expression: string) => {
    const started = performance.now();
    const receiver = await BrowsingReceiver.open(endpoint, `${SCANNED}::${SCANNED}`, '');
    let reads = 0;
    const found = await scanBodies(
      (max) => {
        reads++;
        return receiver.next(max);
      },
      compileBodyFilter({ match, expression }),
      { budget: { messages: Infinity, ms: Infinity }, keep: () => null },
    ).finally(() => receiver.close());
    return { ms: performance.now() - started, reads, scan: found.scan };
  };
  const bare = () => scan('text', 'never in any body');
  const cel = () => scan('cel', 'body.status == "REJECTED" && body.lines.exists(l, l.sku == "S-0")');
  progress(`scanning ${MESSAGES} messages ${SCANS} times each way, interleaved`);
  const bareRuns: Awaited<ReturnType<typeof scan>>[] = [];
  const celRuns: Awaited<ReturnType<typeof scan>>[] = [];
  for (let i = 0; i < SCANS; i++) {
    if (i % 2) {
      celRuns.push(await cel());
      bareRuns.push(await bare());
    } else {
      bareRuns.push(await bare());
      celRuns.push(await cel());
    }
  }
  for (const run of [...bareRuns, ...celRuns])
    if (run.scan.scanned !== MESSAGES || !run.scan.complete)
      throw new Error(`a scan read ${run.scan.scanned} of ${MESSAGES} messages`);
  const expected = Array.from({ length: MESSAGES }, (_, i) => i).filter(
    (i) => i % 100 === 42 && i % 7 === 0,
  ).length;
  if (celRuns.some((r) => r.scan.matched !== expected))
    throw new Error(`the CEL scan matched ${celRuns.map((r) => r.scan.matched).join(', ')}, not ${expected}`);

  progress(`browsing the first ${BROWSED} messages through management, 200 a page`);
  const browseStarted = performance.now();
  let pages = 0;
  for (let page = 1; page * 200 <= BROWSED; page++, pages++)
    await exec(queueMbean(SCANNED), 'browse(int,int,java.lang.String)', [page, 200, '']);
  const browseMs = performance.now() - browseStarted;

  const rate = (ms: number, n: number) => Math.round(n / (ms / 1000));
  const bareMs = bareRuns.map((r) => r.ms);
  const celMs = celRuns.map((r) => r.ms);
  console.table([
    {
      measure: `one pass over ${MESSAGES} (msg/s, median of ${SCANS})`,
      'bare read': rate(median(bareMs), MESSAGES),
      'CEL filter': rate(median(celMs), MESSAGES),
      'CEL / bare (time)': round(median(celMs) / median(bareMs), 2),
      spread: `${round(Math.min(...celMs) / Math.max(...bareMs), 2)}–${round(Math.max(...celMs) / Math.min(...bareMs), 2)}`,
      goal: '≤ 1.5',
      'broker reads': celRuns[0].reads,
      matched: celRuns[0].scan.matched,
    },
  ]);
  console.table([
    {
      measure: `management browse, pages of 200 over the first ${BROWSED}`,
      'msg/s': rate(browseMs, BROWSED),
      'broker calls': pages,
      'per message vs the bare AMQP read (time)': round(browseMs / BROWSED / (median(bareMs) / MESSAGES), 2),
      note: 'each page rescans from the head; bodies cut at 256 bytes',
    },
  ]);

  progress('paced redrives');
  const database = await createTestDatabase({ migrated: true });
  const dataSource = await createDataSource({ url: database.url, poolSize: 4 }).initialize();
  const registered = await insertCluster(
    dataSource,
    brokerCluster(broker, `bench-${randomUUID().slice(0, 6)}`),
  );
  const cluster = clusterOf(registered);
  const jobs = new MessageJobs({
    jolokia,
    lanes: new BrokerLanes(),
    store: new MessageJobRepository(dataSource),
    signal: () => undefined,
    log: { warn: (m) => console.error(m) },
  });
  const rows = [];
  for (const [i, asked] of RATES.entries()) {
    const queue = paced[i];
    const count = asked * PACED_SECONDS;
    await ensureQueue(queue);
    await ensureQueue(`${queue}.to`);
    await fillQueue(broker, queue, count);
    const jobId = randomUUID();
    const started = performance.now();
    await jobs.start(
      cluster,
      {
        clusterId: registered.id,
        jobId,
        queue,
        requestedBy: 'bench',
        job: { kind: 'move', to: `${queue}.to`, batchSize: 2_000, rate: asked },
      },
      new AbortController().signal,
    );
    await jobs.whenIdle();
    const seconds = (performance.now() - started) / 1000;
    const job = await new MessageJobRepository(dataSource).get(registered.id, jobId);
    if (job?.processed !== count)
      throw new Error(`the paced job at ${asked}/s moved ${job?.processed} of ${count}`);
    rows.push({
      'asked (msg/s)': asked,
      messages: count,
      seconds: round(seconds, 2),
      'kept (msg/s)': round(count / seconds, 1),
      'kept / asked': round(count / seconds / asked, 3),
      goal: '0.9–1.1',
      batches: job.nodes[0].batches,
    });
  }
  console.table(rows);
  await dataSource.destroy();
  await database.drop();
  await removeQueues(ours);
});
