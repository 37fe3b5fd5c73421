/**
 * Studio away (issue 30): npm run bench -- studio-away
 *   AWAY_MINUTES=10  AWAY_RATE=500 (notifications/s)  AWAY_CLIENTS=50
 *
 * The fault suite's rig (bench/support/fault-rig.ts), with its churn at 500 notifications/s. Every
 * Studio service is stopped for ten minutes, as for maintenance or an outage of the cluster it
 * runs on, while the broker keeps sending; then all of them start again at once. What the
 * broker's side costs, and what Studio's side gets back:
 * - the ring's depth, sampled every 2 s while away, against its bound (the setting, read off the
 *   queue), and the broker's heap: its floor before, once the ring is full and at the end, and
 *   its peak in use;
 * - the drain after the return: how fast the notifier consumes the backlog against how fast
 *   notifications arrive meanwhile (the goal: at least 5x), and the limit in the same run: a
 *   backlog of a minute drained by a bare AMQP receiver that does nothing with what it takes;
 * - what was stored of the consumer notifications the churn caused, what the ring discarded by the
 *   broker's own counters and what Studio reported as dropped (every discard, with its period),
 *   whether the lost ones were the oldest, the stored ones in the broker's order, and what the
 *   stream's followers received (in order, no gap they were not told of).
 * A report, not a timed test: the figures go to docs/benchmarks.md.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { brokerJolokia, openAmqpClient } from '@artemis-studio/testing';
import { ReceiverEvents } from 'rhea-promise';
import { FAULTS_LOG_DIR } from './support/fault-rig';
import { startLoadedRig } from './support/loaded-rig';
import { runBench } from './support/run-bench';
import { openFollowers } from './support/followers';
import { cpuMsOf, machineBusyMs } from './support/process-stats';

const AWAY_MS = Number(process.env.AWAY_MINUTES ?? 10) * 60_000;
const RATE = Number(process.env.AWAY_RATE ?? 500);
const CLIENTS = Number(process.env.AWAY_CLIENTS ?? 50);
/** The drain's goal: consumed at least this many times as fast as notifications arrive. */
const DRAIN_GOAL = 5;
/** The notifier's credit (NOTIFIER_CREDIT_WINDOW): a ring cannot discard what is in delivery. */
const CREDIT_WINDOW = 500;
/** How long the ring fills again before the bare receiver drains it. */
const BARE_BACKLOG_MS = 60_000;
/** A bench of its own, a log folder of its own: the fault suite's logs stay as they were. */
const LOG_DIR = `${FAULTS_LOG_DIR}-away`;
const progress = (step: string) => console.error(`[${new Date().toISOString()}] ${step}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) =>
  xs.length === 0 ? 0 : [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** A PostgreSQL connection's key in the CPU figures, before its pid. */
const PG_CONNECTION = 'pg-connection:';
const MB = 1024 * 1024;
/** The phases whose notifications Studio should hold: the bare receiver's are its own. */
const CHECKED = ['before', 'away', 'return'];

interface RingCounters {
  at: number;
  ringSize: number;
  depth: number;
  added: number;
  acknowledged: number;
  consumers: number;
  /** Added and neither acknowledged nor held: what the ring discarded (nothing expires or is killed here). */
  discarded: number;
}

/**
 * Follows a drain of the ring: from its first acknowledgement past `acknowledgedBefore` until it
 * is no deeper than `drainedDepth`; the rates over that span, and the CPU used at either end.
 */
async function measureDrain(
  ring: () => Promise<RingCounters>,
  acknowledgedBefore: number,
  drainedDepth: number,
  cpuNow: () => Map<string, number>,
  notifierUrl?: string,
  /** What PostgreSQL is busy with now: a statement per active connection. */
  activeStatements?: () => Promise<string[]>,
) {
  const started = Date.now();
  let first: RingCounters | null = null;
  let cpuFirst = new Map<string, number>();
  let last = await ring();
  /** The notifier's buffer, each second: full, it publishes slower than it takes; empty, it waits for the broker. */
  const buffered: number[] = [];
  /** Statements PostgreSQL was running at each second of the drain, by how often they were seen. */
  const statements = new Map<string, number>();
  while (Date.now() < started + 10 * 60_000) {
    await sleep(1000);
    if (first !== null && activeStatements)
      for (const statement of await activeStatements())
        statements.set(statement, (statements.get(statement) ?? 0) + 1);
    if (first !== null && notifierUrl) {
      const text = await (await fetch(`${notifierUrl}/metrics`).catch(() => null))?.text();
      const found = text && /^studio_notifier_events_buffered(?:\{[^}]*\})? (\d+)/m.exec(text);
      if (found) buffered.push(Number(found[1]));
    }
    last = await ring();
    if (first === null && last.acknowledged > acknowledgedBefore) {
      first = last;
      cpuFirst = cpuNow();
    }
    if (first !== null && last.depth <= drainedDepth) break;
  }
  if (!first) throw new Error('nobody read the ring');
  const cpuLast = cpuNow();
  const drainSeconds = (last.at - first.at) / 1000;
  return {
    first,
    last,
    drainSeconds,
    consumed: (last.acknowledged - first.acknowledged) / drainSeconds,
    arrived: (last.added - first.added) / drainSeconds,
    cpuFirst,
    cpuLast,
    buffered,
    statements,
  };
}

async function main(): Promise<void> {
  const { rig, churn, watcher, perCycle } = await startLoadedRig(progress, LOG_DIR);
  const { broker } = rig;
  const ringMbean = `org.apache.activemq.artemis:broker="${broker.nodes[0].name}",component=addresses,address="activemq.notifications",subcomponent=queues,routing-type="multicast",queue="artemis-studio.${rig.clusterId}"`;

  const ring = async (): Promise<RingCounters> => {
    const answer = await brokerJolokia(broker, {
      type: 'read',
      mbean: ringMbean,
      // Added first: read while moving, the discards can then only come out smaller.
      attribute: ['MessagesAdded', 'RingSize', 'MessageCount', 'MessagesAcknowledged', 'ConsumerCount'],
    });
    if (answer.status !== 200) throw new Error(`Studio's ring not read: ${answer.error}`);
    const v = answer.value as Record<string, number>;
    return {
      at: Date.now(),
      ringSize: v.RingSize,
      depth: v.MessageCount,
      added: v.MessagesAdded,
      acknowledged: v.MessagesAcknowledged,
      consumers: v.ConsumerCount,
      discarded: v.MessagesAdded - v.MessagesAcknowledged - v.MessageCount,
    };
  };
  /**
   * The broker's heap in use, sampled by `sampleHeap`. Its management denies a forced collection
   * (`gc`), so what the heap holds is read as its floor: the least in use over a minute of samples,
   * the troughs after the young collections that run every few seconds at this rate.
   */
  const heapSamples: { at: number; used: number }[] = [];
  let heapMax = 0;
  const sampleHeap = async () => {
    const answer = await brokerJolokia(broker, {
      type: 'read',
      mbean: 'java.lang:type=Memory',
      attribute: 'HeapMemoryUsage',
    });
    if (answer.status !== 200) throw new Error(`the broker's heap not read: ${answer.error}`);
    const usage = answer.value as { used: number; max: number };
    heapMax = usage.max;
    heapSamples.push({ at: Date.now(), used: usage.used });
    return usage.used;
  };
  const heapFloor = (from: number, to: number) =>
    Math.min(...heapSamples.filter((h) => h.at >= from && h.at < to).map((h) => h.used));
  /** CPU used so far by each part of the pipeline, in ms: where the drain spends the machine. */
  const brokerPid = Number(readFileSync(join(broker.nodes[0].home, 'data', 'artemis.pid'), 'utf8').trim());
  /** The bench's own processes, by name: itself (its churn, its measuring), its followers once open. */
  const helpers = new Map<string, number>([["the bench's churn", process.pid]]);
  const cpuNow = () => {
    const cpu = new Map<string, number>();
    // What the drain is up against: a machine busy all the time limits it, whoever is waiting.
    cpu.set(`the whole machine (${availableParallelism()} cores)`, machineBusyMs());
    for (const [name, pid] of helpers) cpu.set(name, cpuMsOf(pid));
    for (const service of rig.services)
      if (service.process) cpu.set(service.key, cpuMsOf(service.process.pid));
    cpu.set('broker (live node)', cpuMsOf(brokerPid));
    if (rig.nats.pid) cpu.set('NATS', cpuMsOf(rig.nats.pid));
    // Every process of the machine's PostgreSQL, a connection's by its pid (named by its
    // application after the drain): one 10-minute run found PostgreSQL at half a core.
    let background = 0;
    for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d)))
      try {
        if (!readFileSync(`/proc/${pid}/comm`, 'utf8').trim().startsWith('postgres')) continue;
        const connection = /\(\d+\)/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
        if (connection) cpu.set(`${PG_CONNECTION}${pid}`, cpuMsOf(Number(pid)));
        else background += cpuMsOf(Number(pid));
      } catch {
        // Gone meanwhile.
      }
    cpu.set('PostgreSQL: checkpointer, writers', background);
    return cpu;
  };

  const ringDrops = async () =>
    (
      await rig.db.query<{ dropped: string; first_at: Date; last_at: Date }[]>(
        `SELECT dropped, first_at, last_at FROM event_drop_counter WHERE cluster_id = $1 AND source = 'broker-ring'`,
        [rig.clusterId],
      )
    )[0];

  const cyclesPerSecond = RATE / perCycle;
  progress(`${perCycle} notifications per cycle: ${cyclesPerSecond.toFixed(0)} cycles/s for ${RATE}/s`);
  progress(`opening ${CLIENTS} followers through the balancer`);
  const {
    process: followers,
    status,
    check,
  } = await openFollowers(rig.streamUrl, CLIENTS, rig.streamHeaders);
  helpers.set("the bench's followers", followers.pid!);

  const setPhase = (name: string) => {
    churn.setPhase(name);
    followers.send({ type: 'phase', name });
  };
  setPhase('before');
  churn.start(cyclesPerSecond);
  let beforeDepth = 0;
  const beforeFrom = Date.now();
  for (const end = beforeFrom + 60_000; Date.now() < end; await sleep(2000)) {
    beforeDepth = Math.max(beforeDepth, (await ring()).depth);
    await sampleHeap();
  }
  const heapBefore = heapFloor(beforeFrom, Date.now());
  const ringBefore = await ring();
  progress(
    `before: ring of ${ringBefore.ringSize}, deepest ${beforeDepth}; broker heap floor ${(heapBefore / MB).toFixed(0)} MB of ${(heapMax / MB).toFixed(0)} MB`,
  );

  progress(`Studio away for ${AWAY_MS / 60_000} min: every service stopped`);
  await rig.stopAll();
  // From here nobody reads: what the churn causes now waits in the ring, the oldest lost first.
  setPhase('away');
  const awayFrom = Date.now();
  let deepest = 0;
  let fullAt: number | null = null;
  for (const end = awayFrom + AWAY_MS; Date.now() < end; await sleep(2000)) {
    const r = await ring();
    deepest = Math.max(deepest, r.depth);
    await sampleHeap();
    if (fullAt === null && r.depth >= r.ringSize) {
      fullAt = Date.now();
      progress(`  the ring is full, ${((fullAt - awayFrom) / 1000).toFixed(0)} s after Studio left`);
    }
  }
  const awayUntil = Date.now();
  const peakUsed = Math.max(...heapSamples.filter((h) => h.at >= awayFrom).map((h) => h.used));
  // What a full ring costs the broker: the minute after it filled, and the last minute away.
  const heapFull =
    fullAt !== null && fullAt + 60_000 < awayUntil - 60_000 ? heapFloor(fullAt, fullAt + 60_000) : null;
  const heapAway = heapFloor(awayUntil - 60_000, awayUntil);
  const ringAway = await ring();
  progress(
    `  at the end: depth ${ringAway.depth} (deepest ${deepest}), ${ringAway.discarded - ringBefore.discarded} discarded; heap floor ${(heapAway / MB).toFixed(0)} MB`,
  );

  progress('Studio back: every service started at once');
  setPhase('return');
  const returnAt = Date.now();
  await rig.startAll();
  progress(`  every service ready ${Date.now() - returnAt} ms after the start`);
  // The drain: from the first notification the notifier took from the ring to the ring being as
  // shallow as it was with Studio present.
  const drainedDepth = 2 * beforeDepth + 100;
  const drain = await measureDrain(
    ring,
    ringAway.acknowledged,
    drainedDepth,
    cpuNow,
    rig.service('notifier').process?.url,
    async () =>
      (
        await rig.db.query<{ statement: string }[]>(
          `SELECT application_name || ': ' || left(regexp_replace(query, '\\s+', ' ', 'g'), 120) AS statement
             FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid()`,
        )
      ).map((r) => r.statement),
  );
  const { first, last, drainSeconds, consumed, arrived } = drain;
  progress(
    `  drained in ${drainSeconds.toFixed(1)} s after the first read (${((first.at - returnAt) / 1000).toFixed(1)} s after the start): ${consumed.toFixed(0)}/s consumed, ${arrived.toFixed(0)}/s arriving`,
  );
  await sleep(30_000);
  const ringReturned = await ring();

  // The limit, in the same run: the same kind of backlog drained by a bare AMQP receiver that
  // accepts each notification as it comes and does nothing else.
  progress(
    `the limit: the notifier stopped ${BARE_BACKLOG_MS / 1000} s, then a bare receiver drains the ring`,
  );
  setPhase('bare');
  await rig.stopService('notifier');
  await sleep(BARE_BACKLOG_MS);
  const bareFrom = await ring();
  const bareConnection = await openAmqpClient(broker.nodes[0].amqpUrl, broker.user, broker.password);
  const bareReceiver = await bareConnection.createReceiver({
    source: { address: `activemq.notifications::artemis-studio.${rig.clusterId}` },
    credit_window: CREDIT_WINDOW,
  });
  bareReceiver.on(ReceiverEvents.message, () => undefined);
  const bare = await measureDrain(ring, bareFrom.acknowledged, drainedDepth, cpuNow);
  await bareConnection.close();
  progress(
    `  a backlog of ${bareFrom.depth} drained in ${bare.drainSeconds.toFixed(1)} s: ${bare.consumed.toFixed(0)}/s consumed, ${bare.arrived.toFixed(0)}/s arriving`,
  );

  progress('stopping the churn; waiting for storage, the drop report and the followers to settle');
  await churn.stop();
  await watcher.stop();
  const discarded = ringReturned.discarded - ringBefore.discarded;
  let stored = -1;
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; await sleep(3000)) {
    const max = Number(
      (
        await rig.db.query(`SELECT coalesce(max(seq), 0) AS m FROM broker_event WHERE cluster_id = $1`, [
          rig.clusterId,
        ])
      )[0].m,
    );
    const reported = Number((await ringDrops())?.dropped ?? 0);
    if (max === stored && (await status()).lastIds.min >= max && reported >= discarded) break;
    stored = max;
  }

  const rows = await rig.db.query<
    {
      phase: string;
      rows: string;
      distinct_rows: string;
      first_ts: Date | null;
      last_ts: Date | null;
      seqs: string[];
    }[]
  >(
    `SELECT split_part(queue, '.', 2) AS phase, count(*) AS rows,
            count(DISTINCT (node, type, session, consumer, props->>'_AMQ_NotifTimestamp')) AS distinct_rows,
            min(broker_ts) AS first_ts, max(broker_ts) AS last_ts, array_agg(seq ORDER BY seq) AS seqs
       FROM broker_event
      WHERE cluster_id = $1 AND queue LIKE 'faults.%' AND type IN ('CONSUMER_CREATED', 'CONSUMER_CLOSED')
      GROUP BY 1`,
    [rig.clusterId],
  );
  const storedBy = new Map(rows.map((r) => [r.phase, r]));
  // Stored in the broker's order: a notification stored after one the broker dated later. The
  // broker dates a notification on the thread that makes it, so neighbours made at once on two
  // threads can be a few milliseconds apart the other way: only a step back of a second counts.
  const [{ inversions, small, widest }] = await rig.db.query<
    { inversions: string; small: string; widest: number | null }[]
  >(
    `SELECT count(*) FILTER (WHERE broker_ts < before - interval '1 second') AS inversions,
            count(*) FILTER (WHERE broker_ts < before) AS small,
            max(extract(epoch FROM before - broker_ts) * 1000)::float8 AS widest
       FROM (SELECT broker_ts, lag(broker_ts) OVER (ORDER BY seq) AS before
               FROM broker_event WHERE cluster_id = $1 AND broker_ts IS NOT NULL) ordered`,
    [rig.clusterId],
  );
  const checks = await check(
    CHECKED.map((name) => ({
      name,
      seqs: (storedBy.get(name)?.seqs ?? []).map(Number),
    })),
  );
  const drops = await ringDrops();
  const reported = Number(drops?.dropped ?? 0);

  // The ring keeps the newest: what it discarded is the oldest it held, from the end of "before"
  // (what the notifier had not taken when Studio left waited in the ring too) to some time in
  // "away"; every lost one was caused before the first one kept of the phase.
  const causedBeforeFirstKept = (phase: string) => {
    const first = storedBy.get(phase)?.first_ts?.getTime() ?? Infinity;
    return (churn.causedBetween.get(phase) ?? []).filter(([, answered]) => answered < first).length;
  };
  const causedAfterLastKept = (phase: string) => {
    const last = storedBy.get(phase)?.last_ts?.getTime() ?? -Infinity;
    return (churn.causedBetween.get(phase) ?? []).filter(([asked]) => asked > last).length;
  };

  console.log(
    `\nStudio away ${AWAY_MS / 60_000} min, Artemis 2.40.0 live/backup pair, ${RATE} notifications/s, ${CLIENTS} followers, ${new Date().toISOString()}\n`,
  );
  console.log(
    '| phase | consumer notifications caused | seen by a subscriber | stored | lost | stored twice | followers complete / told of a gap / missing untold | gap frames | out of order | duplicates |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  const failures: string[] = [];
  const lostIn = new Map<string, number>();
  for (const c of checks) {
    const caused = churn.caused.get(c.name) ?? { created: 0, closed: 0, interrupted: 0 };
    const r = storedBy.get(c.name);
    const distinct = Number(r?.distinct_rows ?? 0);
    const lost = caused.created + caused.closed - distinct;
    lostIn.set(c.name, lost);
    const twice = Number(r?.rows ?? 0) - distinct;
    console.log(
      `| ${c.name} | ${caused.created + caused.closed} | ${watcher.seen.get(c.name) ?? 0} | ${distinct} | ${lost} | ${twice} | ` +
        `${c.complete} / ${c.toldOfGap} / ${c.untold} | ${c.gapFrames} | ${c.outOfOrder} | ${c.duplicates} |`,
    );
    if (c.name === 'return' && lost > 0) failures.push(`${lost} notifications lost after Studio came back`);
    for (const [count, what] of [
      [twice, 'events stored twice'],
      [c.untold, 'followers with a gap they were not told of'],
      [c.outOfOrder, 'events delivered after a later one'],
      [c.duplicates, 'duplicates delivered'],
    ] as const)
      if (count > 0) failures.push(`${c.name}: ${count} ${what}`);
  }
  const awayNotifications = ringAway.added - ringBefore.added;
  const lostAway = lostIn.get('away') ?? 0;
  const awayCaused = (churn.caused.get('away')?.created ?? 0) + (churn.caused.get('away')?.closed ?? 0);
  const heapCostPerHeld = (heapAway - heapBefore) / Math.max(1, ringAway.depth - ringBefore.depth);
  const ratio = consumed / arrived;
  console.log(`
| figure | value |
| --- | --- |
| ring bound (RingSize) | ${ringAway.ringSize} |
| deepest while away, sampled every 2 s | ${deepest} (${((deepest / ringAway.ringSize) * 100).toFixed(1)}% of the bound) |
| full after | ${fullAt === null ? 'never' : `${((fullAt - awayFrom) / 1000).toFixed(0)} s`} |
| notifications sent while away (the ring's MessagesAdded) | ${awayNotifications} |
| discarded by the ring (its counters) / reported dropped by Studio | ${discarded} / ${reported} |
| drop period recorded | ${drops ? `${drops.first_at.toISOString()} to ${drops.last_at.toISOString()}` : 'none'} (Studio away ${new Date(awayFrom).toISOString()} to ${new Date(returnAt).toISOString()}) |
| consumer notifications lost while away / caused | ${lostAway} / ${awayCaused} (${((lostAway / Math.max(1, awayCaused)) * 100).toFixed(1)}%; the ring discarded ${((discarded / Math.max(1, awayNotifications)) * 100).toFixed(1)}% of all) |
| lost in the last of "before" / caused after the last one kept | ${lostIn.get('before') ?? 0} / ${causedAfterLastKept('before')} |
| lost in "away" / caused before the first one kept (the oldest lost) | ${lostAway} / ${causedBeforeFirstKept('away')} |
| broker heap floor (least in use over a minute): before / the minute after full / the last minute away | ${(heapBefore / MB).toFixed(0)} / ${heapFull === null ? 'n/a' : (heapFull / MB).toFixed(0)} / ${(heapAway / MB).toFixed(0)} MB (max ${(heapMax / MB).toFixed(0)} MB) |
| broker heap in use, peak while away | ${(peakUsed / MB).toFixed(0)} MB |
| heap per notification held | ${(heapCostPerHeld / 1024).toFixed(2)} KB |
| drain: consumed / arriving, per second | ${consumed.toFixed(0)} / ${arrived.toFixed(0)}: **${ratio.toFixed(1)}x** (goal ${DRAIN_GOAL}x) |
| the limit, a bare receiver: consumed / arriving, per second | ${bare.consumed.toFixed(0)} / ${bare.arrived.toFixed(0)}: ${(bare.consumed / bare.arrived).toFixed(1)}x; Studio's drain at ${(consumed / bare.consumed).toFixed(2)} of it |
| the notifier's buffer while draining, each second: median / max (of ${10_000}), samples | ${median(drain.buffered)} / ${Math.max(0, ...drain.buffered)}, ${drain.buffered.length} |
| drain time (from the first read) / first read after the start | ${drainSeconds.toFixed(1)} s / ${((first.at - returnAt) / 1000).toFixed(1)} s |
| stored out of the broker's order by more than 1 s / at all (widest step back) | ${inversions} / ${small} (${Math.max(0, widest ?? 0).toFixed(0)} ms) |
`);
  const drainedCount = last.acknowledged - first.acknowledged;
  console.log('| while Studio drained | CPU, share of one core | ms per 1,000 notifications drained |');
  console.log('| --- | --- | --- |');
  const applications = new Map(
    (
      await rig.db.query<{ pid: number; name: string }[]>(
        `SELECT pid, coalesce(nullif(application_name, ''), 'unnamed') AS name FROM pg_stat_activity`,
      )
    ).map((r) => [`${PG_CONNECTION}${r.pid}`, `PostgreSQL: ${r.name}`]),
  );
  const used = new Map<string, number>();
  for (const [key, after] of drain.cpuLast) {
    // A connection opened during the drain counts from nothing.
    const before = drain.cpuFirst.get(key) ?? (key.startsWith(PG_CONNECTION) ? 0 : after);
    const name = applications.get(key) ?? (key.startsWith(PG_CONNECTION) ? 'PostgreSQL: closed since' : key);
    used.set(name, (used.get(name) ?? 0) + after - before);
  }
  for (const [name, ms] of used) {
    if (name.startsWith('PostgreSQL') && ms === 0) continue;
    console.log(
      `| ${name} | ${((ms / 1000 / drainSeconds) * 100).toFixed(0)}% | ${((ms / drainedCount) * 1000).toFixed(0)} |`,
    );
  }

  console.log('\n| PostgreSQL busy with, sampled each second of the drain | seen |\n| --- | --- |');
  for (const [statement, seen] of [...drain.statements].sort((a, b) => b[1] - a[1]).slice(0, 8))
    console.log(`| ${statement.replaceAll('|', '\\|')} | ${seen} |`);

  if (deepest > ringAway.ringSize + CREDIT_WINDOW)
    failures.push(
      `the ring held ${deepest}, past its bound of ${ringAway.ringSize} and the notifier's credit`,
    );
  if (heapFull !== null && heapAway > heapFull * 1.15)
    failures.push(
      `the broker's heap floor grew from ${(heapFull / MB).toFixed(0)} to ${(heapAway / MB).toFixed(0)} MB after the ring was full`,
    );
  if (ratio < DRAIN_GOAL)
    failures.push(`the backlog drained at ${ratio.toFixed(1)}x its arrival, under ${DRAIN_GOAL}x`);
  if (reported !== discarded) failures.push(`the ring discarded ${discarded}, Studio reported ${reported}`);
  if (drops && drops.first_at.getTime() > returnAt)
    failures.push(`the drop's period starts at ${drops.first_at.toISOString()}, after Studio came back`);
  // A receiver is counted when the broker answered, and what the notifier had in delivery went back
  // to the ring's head when it left: a few around the cut may fall either side.
  for (const [phase, lost, outside] of [
    ['before', lostIn.get('before') ?? 0, causedAfterLastKept('before')],
    ['away', lostAway, causedBeforeFirstKept('away')],
  ] as const)
    if (Math.abs(lost - outside) > Math.max(20, lost * 0.02))
      failures.push(
        `${lost} lost in ${phase}, not the ${outside} oldest the ring held: it kept some and lost others`,
      );
  if (Number(inversions) > 0) {
    // Where to look: a late receipt (received_at late too) is the notifier's or the ring's; one
    // received in order but stored late is the stream's or the event store's.
    const late = await rig.db.query<Record<string, unknown>[]>(
      `SELECT seq, type, broker_ts, received_at, before_seq, before_ts, before_received
         FROM (SELECT seq, type, broker_ts, received_at, lag(seq) OVER w AS before_seq,
                      lag(broker_ts) OVER w AS before_ts, lag(received_at) OVER w AS before_received
                 FROM broker_event WHERE cluster_id = $1 AND broker_ts IS NOT NULL WINDOW w AS (ORDER BY seq)) o
        WHERE broker_ts < before_ts - interval '1 second'
        ORDER BY before_ts - broker_ts DESC LIMIT 5`,
      [rig.clusterId],
    );
    failures.push(`${inversions} events stored out of the broker's order: ${JSON.stringify(late)}`);
  }

  followers.kill();
  await rig.stop();
  for (const failure of failures) console.log(`FAILED ${failure}`);
  if (failures.length > 0) process.exitCode = 1;
}

runBench(__filename, main);
