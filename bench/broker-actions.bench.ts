/**
 * Browsing and moving messages against the real bench broker (issue 28):
 *   npm run bench -- broker-actions     (BENCH_MESSAGES=1000000, BENCH_MOVE=100000, BENCH_BATCH: the API's default)
 *
 * - Browse the first page of 100 of a BENCH_MESSAGES queue through the owner's code path
 *   (QueueBrowser: lookup, page, browse limit), against the broker's own `browse(1, 100, "")` over
 *   Jolokia, interleaved: p50 / p99. Goal: within 1.2x.
 * - Move BENCH_MOVE messages as a message job (batches of BENCH_BATCH, every batch recorded in
 *   PostgreSQL and signalled), against one `moveMessages` call moving as many: messages/s. Goal:
 *   within 1.5x, while another queue is browsed every 200 ms (its slowest answer is printed).
 *
 * The queues are filled by the broker's own CLI producer (transactions of 1,000), paged past 10 MB,
 * and deleted at the end: the bench broker is shared with every other benchmark, and 1,200,000
 * messages left in its 1 GiB heap ran it out of memory when console-queues made its queues.
 */
import { MESSAGE_JOB_BATCH_DEFAULT } from '@artemis-studio/contracts';
import { MessageJobRepository, createDataSource } from '@artemis-studio/db';
import { brokerCluster, createTestDatabase, insertCluster } from '@artemis-studio/testing';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BrokerLanes } from '../services/scraper/src/jolokia/broker-lanes';
import { QueueBrowser } from '../services/scraper/src/broker-actions/queue-browse';
import { MessageJobs } from '../services/scraper/src/message-jobs/message-jobs';
import { benchBroker } from './support/bench-broker';
import { runBench } from './support/run-bench';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
const MOVE = Number(process.env.BENCH_MOVE ?? 100_000);
const BATCH = Number(process.env.BENCH_BATCH ?? MESSAGE_JOB_BATCH_DEFAULT);
const BROWSES = 40;
const BIG = 'bench.actions.big';
const CLUSTER_ID = '00000000-0000-4000-8000-0000000000be';

const progress = (step: string) => console.error(`[${new Date().toISOString()}] ${step}`);
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const round = (n: number, digits = 1) => Number(n.toFixed(digits));

async function main(): Promise<void> {
  progress('starting the bench broker and a database');
  const {
    broker,
    node,
    jolokia,
    brokerMbean,
    queueMbean,
    exec,
    depth,
    ensureQueue,
    removeQueues,
    clusterOf,
  } = await benchBroker();
  const moveAll = (from: string, to: string) =>
    exec(queueMbean(from), 'moveMessages(int,java.lang.String,java.lang.String,boolean,int)', [
      10_000,
      '',
      to,
      false,
      -1,
    ]);
  /** Fills the queue up to `count` with 200-byte durable messages (the broker's own CLI producer). */
  const fillTo = async (queue: string, count: number) => {
    await ensureQueue(queue);
    const missing = count - ((await depth(queue)) ?? 0);
    if (missing <= 0) return;
    progress(`filling ${queue} with ${missing} messages`);
    await promisify(execFile)(
      join(node.home, 'bin', 'artemis'),
      [
        'producer',
        '--url',
        node.amqpUrl.replace('amqp://', 'tcp://'),
        '--user',
        broker.user,
        '--password',
        broker.password,
        '--destination',
        `queue://${queue}`,
        '--message-count',
        String(missing),
        '--message-size',
        '200',
        '--txt-size',
        '1000',
        '--threads',
        '1',
      ],
      { maxBuffer: 1 << 24, timeout: 3_600_000 },
    );
  };

  const moveA = 'bench.actions.move.a';
  const moveB = 'bench.actions.move.b';
  const ours = [BIG, moveA, `${moveA}.to`, moveB, `${moveB}.to`];
  // A run that failed half-way left its queues: start from none.
  await removeQueues(ours);
  // Paged past 10 MB each, so a million messages sit on disk, not in the heap other benchmarks share.
  await exec(brokerMbean, 'addAddressSettings(java.lang.String,java.lang.String)', [
    'bench.actions.#',
    JSON.stringify({
      maxSizeBytes: 10 * 1024 * 1024,
      pageSizeBytes: 1024 * 1024,
      addressFullMessagePolicy: 'PAGE',
    }),
  ]);
  for (const queue of [moveA, moveB]) await ensureQueue(`${queue}.to`);
  await fillTo(BIG, MESSAGES);
  await fillTo(moveA, MOVE);
  await fillTo(moveB, MOVE);

  const database = await createTestDatabase({ migrated: true });
  const dataSource = await createDataSource({ url: database.url, poolSize: 4 }).initialize();
  const registered = await insertCluster(
    dataSource,
    brokerCluster(broker, `bench-${randomUUID().slice(0, 6)}`),
  );
  const cluster = clusterOf(registered);
  const lanes = new BrokerLanes();
  const browser = new QueueBrowser(jolokia, lanes);

  progress(`browsing the first 100 of ${await depth(BIG)} messages, ${BROWSES} times each way`);
  const ourTimes: number[] = [];
  const theirs: number[] = [];
  const timed = async (work: () => Promise<unknown>) => {
    const started = performance.now();
    await work();
    return performance.now() - started;
  };
  const browseOurs = () =>
    browser.page(cluster, { clusterId: CLUSTER_ID, queue: BIG, page: 1, pageSize: 100 });
  const browseTheirs = () => exec(queueMbean(BIG), 'browse(int,int,java.lang.String)', [1, 100, '']);
  for (let i = 0; i < 3; i++) await Promise.all([browseOurs(), browseTheirs()].map((p) => p.catch(() => 0)));
  for (let i = 0; i < BROWSES; i++) {
    // Alternating which goes first, so neither always meets a warmer cache.
    if (i % 2) {
      theirs.push(await timed(browseTheirs));
      ourTimes.push(await timed(browseOurs));
    } else {
      ourTimes.push(await timed(browseOurs));
      theirs.push(await timed(browseTheirs));
    }
  }

  progress(`moving ${MOVE} messages: one broker call, then a message job in batches of ${BATCH}`);
  const singleMs = await timed(() => moveAll(moveA, `${moveA}.to`));
  const movedBySingle = await depth(`${moveA}.to`);

  let signals = 0;
  const jobs = new MessageJobs({
    jolokia,
    lanes,
    store: new MessageJobRepository(dataSource),
    signal: () => signals++,
    log: { warn: (m) => console.error(m) },
  });
  const browsedDuring: number[] = [];
  let moving = true;
  const browsing = (async () => {
    while (moving) {
      browsedDuring.push(
        await timed(() =>
          browser.page(cluster, { clusterId: CLUSTER_ID, queue: BIG, page: 1, pageSize: 10 }),
        ),
      );
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  const jobId = randomUUID();
  const jobMs = await timed(async () => {
    await jobs.start(
      cluster,
      {
        clusterId: registered.id,
        jobId,
        queue: moveB,
        requestedBy: 'bench',
        job: { kind: 'move', to: `${moveB}.to`, batchSize: BATCH },
      },
      new AbortController().signal,
    );
    await jobs.whenIdle();
  });
  moving = false;
  await browsing;
  const job = await new MessageJobRepository(dataSource).get(registered.id, jobId);

  console.table([
    {
      measure: 'browse first 100 (ms)',
      'broker call p50': round(percentile(theirs, 50)),
      'broker call p99': round(percentile(theirs, 99)),
      'Studio p50': round(percentile(ourTimes, 50)),
      'Studio p99': round(percentile(ourTimes, 99)),
      'ratio p50': round(percentile(ourTimes, 50) / percentile(theirs, 50), 2),
      'ratio p99': round(percentile(ourTimes, 99) / percentile(theirs, 99), 2),
      goal: '≤ 1.2',
    },
  ]);
  console.table([
    {
      measure: `move ${MOVE}`,
      'one call msg/s': Math.round((movedBySingle ?? 0) / (singleMs / 1000)),
      'job msg/s': Math.round((job?.processed ?? 0) / (jobMs / 1000)),
      'job / one call (time)': round(jobMs / singleMs, 2),
      goal: '≤ 1.5',
      batches: job?.nodes[0]?.batches,
      'progress signals': signals,
      'other queue browsed': browsedDuring.length,
      'its slowest (ms)': round(Math.max(...browsedDuring, 0)),
      status: job?.status,
    },
  ]);
  if (job?.status !== 'done' || job.processed !== MOVE || movedBySingle !== MOVE)
    throw new Error(
      `moved ${movedBySingle} in one call and ${job?.processed} as a job (${job?.status}), not ${MOVE}`,
    );

  await removeQueues(ours);
  await dataSource.destroy();
  await database.drop();
}

runBench(__filename, main);
