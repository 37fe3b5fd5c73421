/**
 * The fault suite (issue 17): npm run bench -- faults
 *   FAULTS_CLIENTS=200  FAULTS_RATE=500 (notifications/s)  FAULTS_SEED=17  FAULTS_RANDOM_SECONDS=120
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
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { killOnExit } from '@artemis-studio/testing';
import { artemis } from '@artemis-studio/testing';
import { FAULTS_PROFILE, FaultRig } from './support/fault-rig';
import { BrokerWatcher, NotificationChurn } from './support/notification-churn';
import { once } from './support/sse-load-process';

const CLIENTS = Number(process.env.FAULTS_CLIENTS ?? 200);
const RATE = Number(process.env.FAULTS_RATE ?? 500);
const SEED = Number(process.env.FAULTS_SEED ?? 17);
const RANDOM_SECONDS = Number(process.env.FAULTS_RANDOM_SECONDS ?? 120);
/** How long a phase waits, at most, for every follower to hear an event caused after its fault. */
const RECOVERY_LIMIT_MS = 90_000;
const PG_OUTAGE_MS = 30_000;

const progress = (step: string) => console.error(`[${new Date().toISOString()}] ${step}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface FollowerStatus {
  open: number;
  lastIds: { min: number; max: number };
  recovered: number;
  recoveryMs: number | null;
  refusals: number;
}

interface PhaseCheck {
  name: string;
  complete: number;
  toldOfGap: number;
  untold: number;
  missed: number;
  duplicates: number;
  silenceMs: number;
  reconnects: number;
}

interface PhaseRecord {
  key: string;
  title: string;
  unready: Set<string>;
  readyAfterMs: number | null;
  recoveryMs: number | null;
  recovered: number;
  dropsReported: number;
}

/** mulberry32: a seeded generator, so the random round can be run again as it was. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function main(): Promise<void> {
  const rig = await FaultRig.start(progress);
  const { broker } = rig;
  const churn = new NotificationChurn(broker.nodes, broker.user, broker.password);
  const watcher = new BrokerWatcher(broker.nodes, broker.user, broker.password);

  progress('calibrating: notifications per attach and detach');
  await sleep(1000);
  const before = watcher.total;
  await churn.burst(50);
  await sleep(1500);
  const perCycle = (watcher.total - before) / 50;
  const cyclesPerSecond = RATE / perCycle;
  progress(`${perCycle} notifications per cycle: ${cyclesPerSecond.toFixed(0)} cycles/s for ${RATE}/s`);

  progress(`opening ${CLIENTS} followers through the balancer`);
  const followers = killOnExit(
    fork(
      join(__dirname, 'support', 'stream-followers.mjs'),
      [rig.streamUrl, String(CLIENTS), JSON.stringify(rig.streamHeaders)],
      {
        stdio: 'inherit',
      },
    ),
  );
  await once(followers, 'ready');
  const status = async () => {
    followers.send({ type: 'status' });
    return once<FollowerStatus>(followers, 'status');
  };
  while ((await status()).open < CLIENTS) await sleep(500);
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
   * One phase: a quiet lead-in, the fault (`inject` resolves when the fault is over: the moment
   * recovery is timed from), then watching until every service is ready and every follower has an
   * event caused after it, and a tail, so late effects land in this phase.
   */
  async function phase(key: string, title: string, inject: () => Promise<void>): Promise<void> {
    progress(`phase ${key}: ${title}`);
    const record: PhaseRecord = {
      key,
      title,
      unready: new Set(),
      readyAfterMs: null,
      recoveryMs: null,
      recovered: 0,
      dropsReported: 0,
    };
    phases.push(record);
    const dropsBefore = await drops();
    churn.setPhase(key);
    followers.send({ type: 'phase', name: key });
    await sleep(5000);

    let watching = true;
    const injected = Date.now();
    const readiness = (async () => {
      while (watching) {
        const unready = await rig.unready();
        for (const u of unready) record.unready.add(u);
        if (unready.length === 0 && record.readyAfterMs === null && Date.now() - injected > 1500) {
          record.readyAfterMs = Date.now() - injected;
        } else if (unready.length > 0) record.readyAfterMs = null;
        await sleep(500);
      }
    })();
    await inject();
    const over = Date.now();
    followers.send({ type: 'mark', at: over });
    const deadline = over + RECOVERY_LIMIT_MS;
    let s = await status();
    while ((s.recovered < CLIENTS || record.readyAfterMs === null) && Date.now() < deadline) {
      await sleep(500);
      s = await status();
    }
    record.recoveryMs = s.recoveryMs;
    record.recovered = s.recovered;
    await sleep(Math.max(0, over + 15_000 - Date.now()));
    watching = false;
    await readiness;
    record.dropsReported = (await drops()) - dropsBefore;
    progress(
      `  followers live again after ${s.recoveryMs} ms (${s.recovered}/${CLIENTS}); services ready after ${record.readyAfterMs} ms; ` +
        `not ready meanwhile: ${[...record.unready].join('; ') || 'none'}`,
    );
  }

  const killPhase = (key: string) => async () => {
    await rig.kill(key);
  };
  const pgAway = async () => {
    rig.postgres.block();
    await sleep(PG_OUTAGE_MS);
    rig.postgres.unblock();
  };
  const failover = async () => {
    await artemis('kill', FAULTS_PROFILE, 'primary');
  };
  const failback = async () => {
    await artemis('start', FAULTS_PROFILE);
  };

  await phase('p0', 'no fault (baseline)', async () => undefined);
  await phase('p1', 'event store SIGKILLed', killPhase('event-store'));
  await phase('p2', 'notifier SIGKILLed', killPhase('notifier'));
  await phase('p3', 'scraper SIGKILLed', killPhase('scraper'));
  await phase('p4', 'one gateway replica SIGKILLed', killPhase('gateway-a'));
  await phase('p5', 'NATS SIGKILLed and restarted', () => rig.nats.restart());
  await phase('p6', `PostgreSQL unreachable ${PG_OUTAGE_MS / 1000} s`, pgAway);
  await phase('p7', 'broker primary SIGKILLed (failover)', failover);
  await phase('p8', 'broker primary back (failback)', failback);

  const random = seeded(SEED);
  await phase('p9', `all together at random for ${RANDOM_SECONDS} s (seed ${SEED})`, async () => {
    const pending: Promise<void>[] = [];
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
      if (choice === 'nats') pending.push(rig.nats.restart());
      else if (choice === 'postgres') {
        pgBusy = true;
        pending.push(pgAway().finally(() => (pgBusy = false)));
      } else if (choice === 'broker') {
        brokerBusy = true;
        const step = primaryUp ? failover() : failback();
        primaryUp = !primaryUp;
        pending.push(step.finally(() => (brokerBusy = false)));
      } else pending.push(rig.kill(choice));
      await sleep(5000 + random() * 10_000);
    }
    await Promise.all(pending);
    // End with the primary live, as the round began.
    if (!primaryUp) {
      log.push('end: failback');
      await failback();
    }
    progress(`  faults: ${log.join(', ')}`);
  });

  progress('stopping the churn; waiting for storage and followers to settle');
  await churn.stop();
  await watcher.stop();
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
    if ((max === stored && s.lastIds.min >= max) || Date.now() > settleDeadline) break;
    stored = max;
    await sleep(3000);
  }

  const rows = await rig.db.query<{ phase: string; rows: string; distinct_rows: string; seqs: string[] }[]>(
    `SELECT split_part(queue, '.', 2) AS phase, count(*) AS rows,
            count(DISTINCT (node, type, session, consumer, props->>'_AMQ_NotifTimestamp')) AS distinct_rows,
            array_agg(seq ORDER BY seq) AS seqs
       FROM broker_event
      WHERE cluster_id = $1 AND queue LIKE 'faults.%' AND type IN ('CONSUMER_CREATED', 'CONSUMER_CLOSED')
      GROUP BY 1`,
    [rig.clusterId],
  );
  const storedBy = new Map(rows.map((r) => [r.phase, r]));
  followers.send({
    type: 'check',
    phases: phases.map((p) => ({ name: p.key, seqs: (storedBy.get(p.key)?.seqs ?? []).map(Number) })),
  });
  const checks = (await once<{ phases: PhaseCheck[] }>(followers, 'check')).phases;

  console.log(
    `\nFault suite, Artemis 2.40.0 live/backup pair, ${CLIENTS} followers, ${RATE} notifications/s, ${new Date().toISOString()}\n`,
  );
  console.log(
    '| fault | caused | seen by a subscriber | stored | lost | stored twice | drops reported | followers complete / told of a gap / missing untold | duplicates delivered | longest silence s | services ready after s | followers live after s | not ready meanwhile |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const p of phases) {
    const caused = churn.caused.get(p.key) ?? { created: 0, closed: 0, interrupted: 0 };
    const r = storedBy.get(p.key);
    const distinct = Number(r?.distinct_rows ?? 0);
    const c = checks.find((x) => x.name === p.key)!;
    const causedCount = caused.created + caused.closed;
    const seconds = (ms: number | null) => (ms === null ? 'never' : (ms / 1000).toFixed(1));
    console.log(
      `| ${p.title} | ${causedCount}${caused.interrupted ? ` (+${caused.interrupted} interrupted)` : ''} | ${watcher.seen.get(p.key) ?? 0} | ${distinct} | ` +
        `${causedCount - distinct} | ${Number(r?.rows ?? 0) - distinct} | ${p.dropsReported} | ${c.complete} / ${c.toldOfGap} / ${c.untold} | ` +
        `${c.duplicates} | ${(c.silenceMs / 1000).toFixed(1)} | ${seconds(p.readyAfterMs)} | ` +
        `${seconds(p.recoveryMs)}${p.recovered < CLIENTS ? ` (${p.recovered}/${CLIENTS})` : ''} | ${[...p.unready].join('; ') || 'none'} |`,
    );
  }
  const s = await status();
  console.log(`\nfollowers: ${s.open} open at the end, ${s.refusals} stream requests refused in all`);

  followers.kill();
  await rig.stop();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
