/**
 * The fault suite (issue 17): npm run bench -- faults
 *   FAULTS_CLIENTS=200  FAULTS_RATE=500 (notifications/s)  FAULTS_SEED=23  FAULTS_RANDOM_SECONDS=120
 *   FAULTS_NATS=cluster (three NATS nodes; a NATS fault takes the stream's leader)
 *   FAULTS_BROKER=cluster (the symmetric cluster of two live nodes: the baseline, then one live node
 *   SIGKILLed while the other serves on, then the node back; the pair's phases are not run)
 *
 * Real processes throughout (bench/support/fault-rig.ts): an Artemis live/backup pair, a private
 * NATS, PostgreSQL behind a TCP proxy, the scraper, the notifier, the event store and two gateway
 * replicas behind a TCP balancer; 200 clients follow the cluster's events through the balancer
 * with Last-Event-ID (bench/support/stream-followers.mjs) while receivers churn on the broker at
 * 500 notifications/s. Each fault is injected in turn, then all of them at random (seeded). For
 * each: the consumer notifications the broker acknowledged (caused), what an independent
 * subscriber saw, what was stored (and stored twice), what each follower received after
 * de-duplication by seq, duplicates delivered, announced gaps, the longest silence, and the time
 * until every service was ready again and every follower had an event caused after the fault.
 * A report, not a timed test: the figures go to docs/benchmarks.md.
 */
import { artemis, outranking, seeded } from '@artemis-studio/testing';
import {
  EVENT_STORE_CONSUMER,
  EVENTS_STREAM,
  UNOBSERVED_EVENT_TYPE,
  buckets,
  leaseKey,
} from '@artemis-studio/contracts';
import { FAULTS_LOG_DIR, FAULTS_PROFILE, askJetStream } from './support/fault-rig';
import { startLoadedRig } from './support/loaded-rig';
import { runBench } from './support/run-bench';
import { openFollowers } from './support/followers';
import { brokerLogPath, takeoverTimeline } from './support/broker-log';

const CLIENTS = Number(process.env.FAULTS_CLIENTS ?? 200);
const RATE = Number(process.env.FAULTS_RATE ?? 500);
const SEED = Number(process.env.FAULTS_SEED ?? 23);
const RANDOM_SECONDS = Number(process.env.FAULTS_RANDOM_SECONDS ?? 120);
/** How long a phase waits, at most, for every follower to hear an event caused after its fault. */
const RECOVERY_LIMIT_MS = 90_000;
const PG_OUTAGE_MS = 30_000;
/** Longer than the notifier's buffer (NOTIFIER_BUFFER_SIZE, 10,000 events) lasts at RATE. */
const NATS_OUTAGE_MS = 30_000;
/** FAULTS_NATS=cluster: three NATS nodes, and a NATS fault takes the node leading STUDIO_EVENTS. */
const NATS_NODE = process.env.FAULTS_NATS === 'cluster' ? ' (the stream leader of three nodes)' : '';
/** FAULTS_PHASES=p0,p8,p9: only these phases (by key), to take one fault apart in several short runs. */
const ONLY_PHASES = process.env.FAULTS_PHASES?.split(',').map((k) => k.trim());
/** FAULTS_BROKER=cluster: the cluster's phases (keys c*) beside the baseline, instead of the pair's. */
const CLUSTER = FAULTS_PROFILE === 'cluster';
const progress = (step: string) => console.error(`[${new Date().toISOString()}] ${step}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface PhaseRecord {
  key: string;
  title: string;
  unready: Set<string>;
  /** From the fault's mark until every service was ready again (and stayed so). */
  readyAfterMs: number | null;
  recoveryMs: number | null;
  recovered: number;
  dropsReported: number;
  startedAt: number;
  endedAt: number;
}

async function main(): Promise<void> {
  const { rig, churn, watcher, perCycle } = await startLoadedRig(progress, FAULTS_LOG_DIR);
  const cyclesPerSecond = RATE / perCycle;
  progress(`${perCycle} notifications per cycle: ${cyclesPerSecond.toFixed(0)} cycles/s for ${RATE}/s`);

  progress(`opening ${CLIENTS} followers through the balancer`);
  const {
    process: followers,
    status,
    check,
  } = await openFollowers(rig.streamUrl, CLIENTS, rig.streamHeaders);
  churn.start(cyclesPerSecond);

  const phases: PhaseRecord[] = [];
  const drops = async () =>
    Number(
      (
        await rig.db.query(
          `SELECT coalesce(sum(dropped), 0) AS n FROM event_drop_counter WHERE cluster_id = $1`,
          [rig.clusterId],
        )
      )[0].n,
    );

  /**
   * One phase: a quiet lead-in, the fault, then watching until every service is ready and every
   * follower has an event caused after it, and a tail, so late effects land in this phase.
   * `inject` resolves with the moment recovery is timed from: the kill for a crash (the restart is
   * part of the recovery), the end of an outage.
   */
  async function phase(key: string, title: string, inject: () => Promise<number>): Promise<void> {
    if (ONLY_PHASES && !ONLY_PHASES.includes(key)) return;
    if (key !== 'p0' && CLUSTER !== key.startsWith('c')) return;
    progress(`phase ${key}: ${title}`);
    const record: PhaseRecord = {
      key,
      title,
      unready: new Set(),
      readyAfterMs: null,
      recoveryMs: null,
      recovered: 0,
      dropsReported: 0,
      startedAt: Date.now(),
      endedAt: 0,
    };
    phases.push(record);
    const dropsBefore = await drops();
    churn.setPhase(key);
    followers.send({ type: 'phase', name: key });
    await sleep(5000);

    let watching = true;
    /** Since when every service has answered ready, without a break. */
    let readySince: number | null = Date.now();
    const readiness = (async () => {
      while (watching) {
        const asked = Date.now();
        const unready = await rig.unready();
        for (const u of unready) record.unready.add(u);
        if (unready.length > 0) readySince = null;
        else readySince ??= asked;
        await sleep(500);
      }
    })();
    const mark = await inject();
    followers.send({ type: 'mark', at: mark });
    const deadline = Date.now() + RECOVERY_LIMIT_MS;
    let s = await status();
    while ((s.recovered < CLIENTS || readySince === null) && Date.now() < deadline) {
      await sleep(500);
      s = await status();
    }
    record.recoveryMs = s.recoveryMs;
    record.recovered = s.recovered;
    await sleep(Math.max(0, mark + 15_000 - Date.now()));
    watching = false;
    await readiness;
    record.readyAfterMs = readySince === null ? null : Math.max(0, readySince - mark);
    record.dropsReported = (await drops()) - dropsBefore;
    record.endedAt = Date.now();
    progress(
      `  followers live again after ${s.recoveryMs} ms (${s.recovered}/${CLIENTS}); services ready after ${record.readyAfterMs} ms; ` +
        `not ready meanwhile: ${[...record.unready].join('; ') || 'none'}`,
    );
  }

  /** Each fault resolves with its mark (see phase()) once it has run its course. */
  const crash = (key: string) => async () => {
    const at = Date.now();
    await rig.kill(key);
    return at;
  };
  const natsRestart = async () => {
    const at = Date.now();
    await rig.nats.restart();
    return at;
  };
  /** Resolves when NATS is back: recovery is timed from there. */
  const natsAway = async () => {
    await rig.nats.restart(NATS_OUTAGE_MS);
    return Date.now();
  };
  const pgAway = async () => {
    await rig.postgres.block();
    await sleep(PG_OUTAGE_MS);
    await rig.postgres.unblock();
    return Date.now();
  };
  const failover = async () => {
    const at = Date.now();
    await artemis('kill', FAULTS_PROFILE, 'primary');
    // After the phase's watch, the backup's takeover as it logged it, timed from the kill.
    setTimeout(() => {
      const lines = takeoverTimeline(brokerLogPath(FAULTS_PROFILE, 'backup'), at);
      progress(`  the backup after the kill:\n    ${lines.join('\n    ') || '(nothing logged)'}`);
    }, 10_000);
    return at;
  };
  /**
   * Resolves once the primary is active again (scripts/artemis.sh waits for it), and times
   * recovery from then: the backup serves until the primary, booted and synchronised, takes
   * over, so the boot is not an outage. Timed from the start command, the suite once reported
   * the boot as recovery (49.8 s).
   */
  const failback = async () => {
    const asked = Date.now();
    await artemis('start', FAULTS_PROFILE);
    progress(`  primary active again ${Date.now() - asked} ms after its start`);
    return Date.now();
  };

  /**
   * A replica joins under a name that ranks first for the cluster (ADR-0016), so the cluster moves
   * to it; once it holds it and the churn has gone on a while, it leaves and hands it back.
   */
  const rebalance = async () => {
    const at = Date.now();
    const current = rig.replicaOf('notifier');
    const joining = outranking(rig.clusterId, current, 'notifier-joining');
    const leases = await rig.bus.kv(buckets.leases);
    const ownerIs = async (replica: string) => {
      while ((await leases.get(leaseKey('notifier', rig.clusterId)))?.value.owner !== replica)
        await sleep(200);
    };
    const joined = await rig.joinReplica('notifier', joining);
    await ownerIs(joining);
    progress(`  ${joining} took the cluster ${Date.now() - at} ms after the fault began`);
    await sleep(5000);
    const leaving = Date.now();
    await joined.stop();
    await ownerIs(current);
    progress(`  handed back to ${current} ${Date.now() - leaving} ms after ${joining} was told to stop`);
    return at;
  };

  /** One live node of the cluster dies for good; the other serves on, with its own clients. */
  const nodeKilled = async () => {
    const at = Date.now();
    await artemis('kill', FAULTS_PROFILE, 'node1');
    return at;
  };
  /** Resolves once the node serves again (scripts/artemis.sh waits for it): timed from then. */
  const nodeBack = async () => {
    const asked = Date.now();
    await artemis('start', FAULTS_PROFILE);
    progress(`  node1 serving again ${Date.now() - asked} ms after its start`);
    return Date.now();
  };

  await phase('p0', 'no fault (baseline)', async () => Date.now());
  await phase('c1', 'a live node of the cluster SIGKILLed (node1; node2 serves on)', nodeKilled);
  await phase('c2', 'the killed cluster node started again', nodeBack);
  await phase('p1', 'event store SIGKILLed', crash('event-store'));
  await phase('p2', 'notifier SIGKILLed', crash('notifier'));
  await phase('p2r', 'notifier rolling restart (a new process, then SIGTERM to the old)', async () => {
    const at = Date.now();
    await rig.rollingRestart('notifier');
    return at;
  });
  await phase(
    'p2b',
    'notifier rebalance: a replica joins and takes the cluster, then leaves and hands it back',
    rebalance,
  );
  await phase('p3', 'scraper SIGKILLed', crash('scraper'));
  await phase('p4', 'one gateway replica SIGKILLed', crash('gateway-a'));
  await phase('p5', `NATS SIGKILLed and restarted${NATS_NODE}`, natsRestart);
  await phase(
    'p6',
    `NATS away ${NATS_OUTAGE_MS / 1000} s${NATS_NODE || " (longer than the notifier's buffer lasts)"}`,
    natsAway,
  );
  await phase('p7', `PostgreSQL unreachable ${PG_OUTAGE_MS / 1000} s`, pgAway);
  await phase('p8', 'broker primary SIGKILLed (failover)', failover);
  await phase('p9', 'broker primary back (failback)', failback);

  const random = seeded(SEED);
  await phase('p10', `all together at random for ${RANDOM_SECONDS} s (seed ${SEED})`, async () => {
    const pending: Promise<number>[] = [];
    const log: string[] = [];
    let primaryUp = true;
    let brokerBusy = false;
    let pgBusy = false;
    const end = Date.now() + RANDOM_SECONDS * 1000;
    while (Date.now() < end) {
      const choices = [
        'event-store',
        'notifier',
        'scraper',
        'gateway-a',
        'gateway-b',
        'nats',
        ...(pgBusy ? [] : ['postgres']),
        ...(brokerBusy ? [] : ['broker']),
      ];
      const choice = choices[Math.floor(random() * choices.length)];
      log.push(`${Math.round((Date.now() - end) / 1000 + RANDOM_SECONDS)} s ${choice}`);
      if (choice === 'nats') pending.push(natsRestart());
      else if (choice === 'postgres') {
        pgBusy = true;
        pending.push(pgAway().finally(() => (pgBusy = false)));
      } else if (choice === 'broker') {
        brokerBusy = true;
        const step = primaryUp ? failover() : failback();
        primaryUp = !primaryUp;
        pending.push(step.finally(() => (brokerBusy = false)));
      } else pending.push(crash(choice)());
      await sleep(5000 + random() * 10_000);
    }
    const marks = await Promise.all(pending);
    // End with the primary live, as the round began.
    if (!primaryUp) {
      log.push('end: failback');
      marks.push(await failback());
    }
    progress(`  faults: ${log.join(', ')}`);
    return Math.max(...marks);
  });

  progress('stopping the churn');
  await churn.stop();
  await watcher.stop();
  progress('waiting for storage and followers to settle');
  let stored = -1;
  const settleDeadline = Date.now() + 120_000;
  for (;;) {
    const max = Number(
      (
        await rig.db.query(`SELECT coalesce(max(seq), 0) AS m FROM broker_event WHERE cluster_id = $1`, [
          rig.clusterId,
        ])
      )[0].m,
    );
    const s = await status();
    const settled = max === stored && s.lastIds.min >= max && (await eventStoreBacklog(rig.nats.url)) === 0;
    if (settled || Date.now() > settleDeadline) break;
    stored = max;
    await sleep(3000);
  }

  // The periods the notifier said it did not observe (ADR-0010): what was lost in them was stated.
  const unobserved = (
    await rig.db.query<{ from: string | null; until: string }[]>(
      `SELECT props->>'from' AS from, props->>'until' AS until FROM broker_event WHERE cluster_id = $1 AND type = $2`,
      [rig.clusterId, UNOBSERVED_EVENT_TYPE],
    )
  ).map((w) => ({ from: w.from ? Date.parse(w.from) : -Infinity, until: Date.parse(w.until) }));
  // A notification was sent between its request and the broker's answer: inside a period when
  // that whole span is, at its edge when the span straddles one (counted as possibly stated).
  const inside = ([a, b]: [number, number]) => unobserved.some((w) => a >= w.from && b <= w.until);
  const atEdge = ([a, b]: [number, number]) =>
    !inside([a, b]) && unobserved.some((w) => b >= w.from && a <= w.until);
  const rows = await rig.db.query<
    { phase: string; rows: string; distinct_rows: string; distinct_unobserved: string; seqs: string[] }[]
  >(
    `WITH w AS (SELECT coalesce((props->>'from')::timestamptz, '-infinity') AS f,
                       (props->>'until')::timestamptz AS u
                  FROM broker_event WHERE cluster_id = $1 AND type = $2)
     SELECT split_part(queue, '.', 2) AS phase, count(*) AS rows,
            count(DISTINCT (node, type, session, consumer, props->>'_AMQ_NotifTimestamp')) AS distinct_rows,
            count(DISTINCT (node, type, session, consumer, props->>'_AMQ_NotifTimestamp')) FILTER (
              WHERE EXISTS (SELECT 1 FROM w WHERE coalesce(broker_ts, received_at) BETWEEN w.f AND w.u)
            ) AS distinct_unobserved,
            array_agg(seq ORDER BY seq) AS seqs
       FROM broker_event
      WHERE cluster_id = $1 AND queue LIKE 'faults.%' AND type IN ('CONSUMER_CREATED', 'CONSUMER_CLOSED')
      GROUP BY 1`,
    [rig.clusterId, UNOBSERVED_EVENT_TYPE],
  );
  const storedBy = new Map(rows.map((r) => [r.phase, r]));
  const checks = await check(
    phases.map((p) => ({ name: p.key, seqs: (storedBy.get(p.key)?.seqs ?? []).map(Number) })),
  );

  console.log(
    `\nFault suite, Artemis 2.40.0 ${CLUSTER ? 'symmetric cluster of two live nodes' : 'live/backup pair'}, NATS ${process.env.FAULTS_NATS === 'cluster' ? 'cluster of three' : 'single server'}, ${CLIENTS} followers, ${RATE} notifications/s, ${new Date().toISOString()}\n`,
  );
  console.log(
    '| fault | caused | seen by a subscriber | stored | lost | lost while unobserved (stated) | of which at a period edge | unobserved s | stored twice | drops reported | followers complete / told of a gap / missing untold | duplicates delivered | longest silence s | services ready after s | followers live after s | not ready meanwhile |',
  );
  console.log(
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  );
  const failures: string[] = [];
  const gapNotes: string[] = [];
  for (const p of phases) {
    const caused = churn.caused.get(p.key) ?? { created: 0, closed: 0, interrupted: 0 };
    const r = storedBy.get(p.key);
    const distinct = Number(r?.distinct_rows ?? 0);
    const c = checks.find((x) => x.name === p.key)!;
    const causedCount = caused.created + caused.closed;
    const seconds = (ms: number | null) => (ms === null ? 'never' : (ms / 1000).toFixed(1));
    const lost = causedCount - distinct;
    // Lost while no subscription was held, in a period the history states, is not silent either:
    // caused in those periods less stored in them.
    const spans = churn.causedBetween.get(p.key) ?? [];
    const edge = spans.filter(atEdge).length;
    const lostUnobserved = Math.min(
      Math.max(0, lost),
      Math.max(0, spans.filter(inside).length + edge - Number(r?.distinct_unobserved ?? 0)),
    );
    const unobservedSeconds =
      unobserved.reduce(
        (sum, w) => sum + Math.max(0, Math.min(w.until, p.endedAt) - Math.max(w.from, p.startedAt)),
        0,
      ) / 1000;
    // Lost but counted (the notifier's buffer overflowed, and the events view says so) is not silent.
    const silentlyLost = Math.max(0, lost - lostUnobserved - p.dropsReported);
    const storedTwice = Number(r?.rows ?? 0) - distinct;
    for (const [count, what] of [
      [silentlyLost, 'notifications lost, neither counted as dropped nor in a stated unobserved period'],
      [storedTwice, 'events stored twice'],
      [c.untold, 'followers with a gap they were not told of'],
      [c.duplicates, 'duplicates delivered'],
    ] as const)
      if (count > 0) failures.push(`${p.title}: ${count} ${what}`);
    if (c.untoldSample)
      failures.push(`${p.title}: first follower missing untold: ${JSON.stringify(c.untoldSample)}`);
    console.log(
      `| ${p.title} | ${causedCount}${caused.interrupted ? ` (+${caused.interrupted} interrupted)` : ''} | ${watcher.seen.get(p.key) ?? 0} | ${distinct} | ` +
        `${lost} | ${lostUnobserved} | ${Math.min(edge, lostUnobserved)} | ${unobservedSeconds.toFixed(1)} | ${storedTwice} | ${p.dropsReported} | ${c.complete} / ${c.toldOfGap} / ${c.untold} | ` +
        `${c.duplicates} | ${(c.silenceMs / 1000).toFixed(1)} | ${seconds(p.readyAfterMs)} | ` +
        `${seconds(p.recoveryMs)}${p.recovered < CLIENTS ? ` (${p.recovered}/${CLIENTS})` : ''} | ${[...p.unready].join('; ') || 'none'} |`,
    );
    if (c.gapFrames > 0) gapNotes.push(`${p.title}: ${JSON.stringify(c.gapReasons)}`);
  }
  // Which gap a follower was told of says where to look: a replay refused, or a cap exceeded.
  if (gapNotes.length > 0) console.log(`\ngap frames by reason:\n  ${gapNotes.join('\n  ')}`);
  const s = await status();
  console.log(`\nfollowers: ${s.open} open at the end, ${s.refusals} stream requests refused in all`);
  // Which node made what was stored: a node that came back is observed (and churned) again.
  if (CLUSTER) {
    const byNode = await rig.db.query<{ phase: string; node: string; n: string }[]>(
      `SELECT split_part(queue, '.', 2) AS phase, node, count(*) AS n FROM broker_event
        WHERE cluster_id = $1 AND queue LIKE 'faults.%' AND type IN ('CONSUMER_CREATED', 'CONSUMER_CLOSED')
        GROUP BY 1, 2 ORDER BY 1, 2`,
      [rig.clusterId],
    );
    console.log(`stored per node: ${byNode.map((r) => `${r.phase} ${r.node} ${r.n}`).join(', ')}`);
  }

  followers.kill();
  await rig.stop();
  // The goal is none of these; the suite says so and fails when one happened.
  for (const failure of failures) console.log(`FAILED ${failure}`);
  if (failures.length > 0) process.exitCode = 1;
}

/**
 * What the event store's consumer has yet to be sent or to acknowledge (-1 when it cannot be
 * read). The stored count standing still for 3 s does not say the store is done: deliveries sent
 * to a writer whose term ended once came back only after the consumer's acknowledgement window
 * (`EVENT_STORE_CONSUMER.ackWaitMs`, 60 s), and were counted lost (2 and 3 in the PostgreSQL
 * phase, run last with FAULTS_PHASES=p0,p7). The bus no longer leaves them so (ADR-0004, amended
 * 2026-12-04); the settle still waits for what is in flight.
 */
const eventStoreBacklog = (servers: string) =>
  askJetStream(
    servers.split(','),
    async (jsm) => {
      const info = await jsm.consumers.info(EVENTS_STREAM, EVENT_STORE_CONSUMER.durable);
      return info.num_ack_pending + info.num_pending;
    },
    -1,
  );

runBench(__filename, main);
