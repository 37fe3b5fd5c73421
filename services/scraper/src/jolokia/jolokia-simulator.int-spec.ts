import {
  JOLOKIA_RECORDING_PATH,
  JolokiaSimulator,
  brokerExec,
  brokerProfile,
  jolokiaRecording,
  testConfig,
  type BrokerProfile,
  type JolokiaRecording,
  type RecordedAnswer,
} from '@artemis-studio/testing';
import { writeFileSync } from 'node:fs';
import { ADDRESS_REQUEST, parseAddresses } from '../addresses/address-observation';
import { parseRingQueues } from '../notification-rings/notification-ring';
import { QUEUE_REQUEST, parseQueues } from '../queues/queue-observation';
import { TIER_A_REQUESTS, observeBroker } from '../topology/node-observation';
import { CallLimiter } from './call-limiter';
import { JolokiaClient, defaultOrigin, type JolokiaRequest, type JolokiaResponse } from './jolokia-client';

/** A wildcard read like the ring's that can match nothing: how the broker says "none". */
const NO_MATCH: JolokiaRequest = {
  type: 'read',
  mbean:
    'org.apache.activemq.artemis:broker=*,component=addresses,address="artemis-studio.none",subcomponent=queues,routing-type="multicast",queue=*',
  attribute: ['Name'],
};
/** What the scraper reads of a node at every tier-A and tier-B tick, and the "none" answer. */
const READS: JolokiaRequest[] = [TIER_A_REQUESTS[0], QUEUE_REQUEST, ADDRESS_REQUEST, NO_MATCH];

type Attributes = Record<string, unknown>;

/** An answer with its wildcard value cut to the entries whose MBean name holds `name`. */
function only(answer: JolokiaResponse, name: string): RecordedAnswer {
  const value = Object.fromEntries(
    Object.entries((answer.value ?? {}) as Record<string, Attributes>).filter(([mbean]) =>
      mbean.includes(`"${name}"`),
    ),
  );
  return { ...answer, value } as RecordedAnswer;
}

/**
 * What a client can rely on in an answer: its envelope's fields, its status, and per entry the
 * MBean name with its values left out and each attribute's type. Values differ run to run.
 */
function shape(answer: RecordedAnswer | JolokiaResponse) {
  const value = (answer.value ?? {}) as Record<string, Attributes>;
  return {
    envelope: Object.keys(answer).sort(),
    status: answer.status,
    entries: Object.entries(value).map(([mbean, attributes]) => ({
      mbean: mbean.replace(/="[^"]*"/g, '="…"'),
      attributes: Object.fromEntries(
        Object.entries(attributes)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([name, v]) => [name, v === null ? 'null' : typeof v]),
      ),
    })),
  };
}

describe('the scale rig’s Jolokia simulator (issue 32) against the real broker', () => {
  let broker: BrokerProfile;
  const client = new JolokiaClient(new CallLimiter(1000));
  const queue = 'artemis-studio.recorded';
  let live: RecordedAnswer[];

  beforeAll(async () => {
    broker = await brokerProfile(testConfig.brokerProfile);
    await brokerExec(broker, 'createQueue(java.lang.String,boolean)', [
      JSON.stringify({ name: queue, address: queue, 'routing-type': 'ANYCAST', durable: true }),
      true,
    ]).catch((err: Error) => {
      // Durable: an earlier run on the same broker made it already.
      if (!/QUEUE_EXISTS|already exists/.test(err.message)) throw err;
    });
    const url = broker.nodes[0].jolokiaUrl;
    const answers = await client.bulk(
      {
        nodeKey: 'recorded',
        jolokiaUrl: url,
        origin: defaultOrigin(url),
        auth: { username: broker.user, password: broker.password },
      },
      READS,
    );
    live = [
      answers[0] as RecordedAnswer,
      only(answers[1], queue),
      only(answers[2], queue),
      answers[3] as RecordedAnswer,
    ];
    // RECORD_JOLOKIA=1 records the answers afresh (a new broker version); prettier --write it after.
    if (process.env.RECORD_JOLOKIA === '1') {
      const [brokerRead, queues, addresses, noMatch] = live;
      const version = Object.values(brokerRead.value as Record<string, Attributes>)[0].Version;
      const recording: JolokiaRecording = {
        artemisVersion: String(version),
        broker: brokerRead,
        queues,
        addresses,
        noMatch,
      };
      writeFileSync(JOLOKIA_RECORDING_PATH, `${JSON.stringify(recording, null, 2)}\n`);
    }
  });

  it('was recorded from this broker: its answers still have the recorded shapes', () => {
    const recording = jolokiaRecording();
    expect(live.map(shape)).toEqual(
      [recording.broker, recording.queues, recording.addresses, recording.noMatch].map(shape),
    );
    expect(shape(live[1]).entries).toHaveLength(1);
  });

  it('answers the scraper’s reads with the broker’s shapes, and the scraper reads them alike', async () => {
    const sim = await JolokiaSimulator.start({ clusters: [{ queues: 3 }], changeShare: 1 });
    try {
      const url = sim.jolokiaUrl(0);
      const answers = await client.bulk(
        { nodeKey: 'simulated', jolokiaUrl: url, origin: defaultOrigin(url) },
        READS,
      );
      const [brokerShape, queueShape, addressShape, noMatchShape] = live.map(shape);
      const simulated = answers.map(shape);
      expect(simulated[0]).toEqual(brokerShape);
      expect(simulated[1]).toEqual({ ...queueShape, entries: Array(3).fill(queueShape.entries[0]) });
      expect(simulated[2]).toEqual({ ...addressShape, entries: Array(3).fill(addressShape.entries[0]) });
      expect(simulated[3]).toEqual(noMatchShape);
      expect(sim.unknown.size).toBe(0);

      const node = { nodeId: 'n', name: 'n' };
      const now = new Date();
      const fromBroker = observeBroker(node, [live[0]], now);
      const fromSim = observeBroker(node, [answers[0]], now);
      expect(fromSim).toMatchObject({
        reachable: true,
        role: 'live',
        version: fromBroker.version,
        reason: null,
      });
      const queues = parseQueues([answers[1]]);
      expect(queues.unreadable).toEqual([]);
      expect(queues.queues.map((q) => q.name)).toEqual(['sim.c0.q0', 'sim.c0.q1', 'sim.c0.q2']);
      expect(Object.keys(queues.queues[0]).sort()).toEqual(
        Object.keys(parseQueues([live[1]]).queues[0]).sort(),
      );
      expect(parseAddresses(answers[2]).addresses).toHaveLength(3);
      expect(parseRingQueues(answers[3])).toEqual([]);

      // Every queue changes between two reads at a share of 1; none at 0.
      const again = parseQueues([
        (
          await client.bulk({ nodeKey: 'simulated', jolokiaUrl: url, origin: defaultOrigin(url) }, [
            QUEUE_REQUEST,
          ])
        )[0],
      ]);
      expect(
        again.queues.filter((q, i) => q.messagesAdded !== queues.queues[i].messagesAdded).length,
      ).toBeGreaterThan(0);
    } finally {
      await sim.stop();
    }
  });
});
