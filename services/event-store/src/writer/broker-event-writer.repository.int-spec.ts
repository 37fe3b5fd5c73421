import type { RawBrokerEvent } from '@artemis-studio/contracts';
import { createTestDatabase, rawBrokerEvent, type TestDatabase } from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { BrokerEventWriterRepository } from './broker-event-writer.repository';

const clusterId = randomUUID();
const rawEvent = (overrides: Partial<RawBrokerEvent> = {}) => rawBrokerEvent({ clusterId, ...overrides });

/** Events reach the writer as the JSON they arrived in. */
const json = (events: RawBrokerEvent[]) => events.map((e) => JSON.stringify(e));

describe('BrokerEventWriterRepository against real PostgreSQL', () => {
  let db: TestDatabase;
  let reader: Client;
  let writer: BrokerEventWriterRepository;

  beforeAll(async () => {
    db = await createTestDatabase({ migrated: true });
    reader = new Client({ connectionString: db.url });
    await reader.connect();
    writer = (await BrokerEventWriterRepository.tryAcquire(db.url, () => undefined))!;
  });

  afterAll(async () => {
    await writer?.release();
    await reader?.end();
    await db?.drop();
  });

  const rowsOf = async (ids: string[]) =>
    (
      await reader.query(
        `SELECT seq::int, broker_ts, received_at, event_id::text, type, node, address, queue, consumer, session,
                connection, remote_address, "user", props
           FROM broker_event WHERE event_id = ANY($1::uuid[]) ORDER BY seq`,
        [ids],
      )
    ).rows;

  it('is the only writer while it holds the lock', async () => {
    expect(await BrokerEventWriterRepository.tryAcquire(db.url, () => undefined)).toBeNull();
  });

  it('stores a batch in batch order and reads back every field exactly, whatever it contains', async () => {
    const awkward = 'tab\there, line\nbreak, cr\r, back\\slash, \\N, "quotes", ünïcödé ✓';
    const events = [
      rawEvent({ address: awkward, queue: awkward, user: '\\N', props: { _AMQ_Address: awkward, n: 1.5 } }),
      rawEvent({
        brokerTs: null,
        address: null,
        queue: null,
        consumer: null,
        remoteAddress: null,
        user: null,
      }),
      rawEvent({ type: 'SECURITY_AUTHENTICATION_VIOLATION', props: {} }),
    ];
    const stored = await writer.insert(json(events));
    expect(stored.map((e) => e.eventId)).toEqual(events.map((e) => e.eventId));
    expect(stored[1].seq).toBe(stored[0].seq + 1);
    expect(stored[2].seq).toBe(stored[1].seq + 1);

    const rows = await rowsOf(events.map((e) => e.eventId));
    expect(rows.map((r) => r.seq)).toEqual(stored.map((e) => e.seq));
    rows.forEach((row, i) => {
      const e = events[i];
      expect(row).toEqual({
        seq: stored[i].seq,
        broker_ts: e.brokerTs === null ? null : new Date(e.brokerTs),
        received_at: new Date(e.receivedAt),
        event_id: e.eventId,
        type: e.type,
        node: e.node,
        address: e.address,
        queue: e.queue,
        consumer: e.consumer,
        session: e.session,
        connection: e.connection,
        remote_address: e.remoteAddress,
        user: e.user,
        props: e.props,
      });
    });
  });

  it('stores the values JSON.parse sees: the last of a repeated key, no key it does not know', async () => {
    const event = rawEvent();
    const body = JSON.stringify({ ...event, surplus: 'ignored' }).replace(
      /}$/,
      ',"queue":"later","type":"LAST"}',
    );
    const parsed = JSON.parse(body) as RawBrokerEvent;
    expect(parsed).toMatchObject({ queue: 'later', type: 'LAST' });
    await writer.insert([body]);
    const [row] = await rowsOf([event.eventId]);
    expect(row).toMatchObject({ queue: parsed.queue, type: parsed.type, address: event.address });
  });

  it.each([
    ['a batch that may hold redeliveries', true],
    // A batch of first deliveries goes without the duplicate check first; it still meets one.
    ['a batch of first deliveries', false],
  ])(
    'skips, in %s, an event already stored and one given twice, storing the rest once',
    async (_, mayBeStored) => {
      const old = rawEvent();
      const [first] = await writer.insert(json([old]));
      const fresh = rawEvent();
      const stored = await writer.insert(json([old, fresh, { ...fresh }]), { mayBeStored });
      expect(stored.map((e) => e.eventId)).toEqual([fresh.eventId]);
      expect(stored[0].seq).toBeGreaterThan(first.seq);
      expect(await rowsOf([old.eventId, fresh.eventId])).toHaveLength(2);
    },
  );

  it('refuses a batch holding text PostgreSQL cannot store with a data exception, and writes none of it', async () => {
    const good = rawEvent();
    const bad = rawEvent({ consumer: 'nul\u0000inside' });
    await expect(writer.insert(json([good, bad]))).rejects.toMatchObject({
      code: expect.stringMatching(/^22/),
    });
    expect(await rowsOf([good.eventId, bad.eventId])).toHaveLength(0);
    // The connection is still usable.
    expect((await writer.insert(json([good])))[0].eventId).toBe(good.eventId);
  });

  it("gives each stored event its cluster's previous seq, within a batch and across batches", async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const first = await writer.insert(json([rawEvent({ clusterId: a }), rawEvent({ clusterId: b })]));
    expect(first.map((e) => e.prevSeq)).toEqual([0, 0]);
    const second = await writer.insert(
      json([rawEvent({ clusterId: a }), rawEvent({ clusterId: b }), rawEvent({ clusterId: a })]),
    );
    // A receiver that got `first` and then sees a prevSeq above what it got knows it missed one.
    expect(second.map((e) => e.prevSeq)).toEqual([first[0].seq, first[1].seq, second[0].seq]);
  });

  it('gives later batches higher seqs, which is what makes seq a replay cursor', async () => {
    const first = await writer.insert(json([rawEvent(), rawEvent()]));
    const second = await writer.insert(json([rawEvent()]));
    expect(second[0].seq).toBeGreaterThan(Math.max(...first.map((e) => e.seq)));
  });
});
