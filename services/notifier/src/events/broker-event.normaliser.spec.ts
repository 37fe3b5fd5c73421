import { RawBrokerEventSchema } from '@artemis-studio/contracts';
import { randomUUID } from 'node:crypto';
import { MAX_EVENT_JSON_CHARS, OWN_CLIENT_PREFIX, normaliseNotification } from './broker-event.normaliser';

describe('normaliseNotification', () => {
  const clusterId = randomUUID();
  const at = new Date('2026-11-29T10:00:00.000Z');
  const consumerCreated = {
    _AMQ_NotifType: 'CONSUMER_CREATED',
    _AMQ_NotifTimestamp: 1_795_000_000_000,
    _AMQ_Address: 'orders',
    _AMQ_RoutingName: 'orders',
    _AMQ_Distance: 0,
    _AMQ_ConsumerCount: 1,
    _AMQ_User: 'studio',
    _AMQ_RemoteAddress: '127.0.0.1:5000',
    _AMQ_SessionName: 's-1',
    _AMQ_Client_ID: 'app-1',
    _AMQ_ConsumerName: 7,
  };

  it('promotes the fields the API filters on and keeps every property verbatim', () => {
    const result = normaliseNotification(consumerCreated, clusterId, 'node-a', at);
    expect(result.kind).toBe('event');
    const event = (result as { event: unknown }).event;
    expect(RawBrokerEventSchema.parse(event)).toMatchObject({
      clusterId,
      node: 'node-a',
      type: 'CONSUMER_CREATED',
      brokerTs: new Date(1_795_000_000_000).toISOString(),
      receivedAt: at.toISOString(),
      address: 'orders',
      queue: 'orders',
      consumer: '7',
      session: 's-1',
      connection: null,
      remoteAddress: '127.0.0.1:5000',
      user: 'studio',
      props: consumerCreated,
    });
  });

  const idOf = (props: Record<string, unknown>, node = 'node-a', cluster = clusterId) =>
    (normaliseNotification(props, cluster, node, at) as { event: { eventId: string } }).event.eventId;

  it('derives the id from the notification: the same one received twice has the same id', () => {
    const id = idOf(consumerCreated);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(idOf({ ...consumerCreated })).toBe(id);
    // A redelivery counts up; it is still the same notification.
    expect(idOf({ ...consumerCreated, JMSXDeliveryCount: 2 })).toBe(id);
  });

  it('gives another notification, node or cluster another id', () => {
    const id = idOf(consumerCreated);
    expect(idOf({ ...consumerCreated, _AMQ_ConsumerName: 8 })).not.toBe(id);
    expect(idOf({ ...consumerCreated, _AMQ_NotifTimestamp: 1_795_000_000_001 })).not.toBe(id);
    expect(idOf(consumerCreated, 'node-b')).not.toBe(id);
    expect(idOf(consumerCreated, 'node-a', '00000000-0000-4000-8000-000000000002')).not.toBe(id);
  });

  it('orders ids by the broker timestamp, so the store index grows at its right edge', () => {
    const ids = Array.from({ length: 1000 }, (_, i) =>
      idOf({ ...consumerCreated, _AMQ_NotifTimestamp: 1_795_000_000_000 + i, _AMQ_ConsumerName: 1000 - i }),
    );
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives a notification without a broker timestamp a random time-ordered id', () => {
    const props = { ...consumerCreated, _AMQ_NotifTimestamp: undefined };
    expect(idOf(props)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    expect(idOf(props)).not.toBe(idOf(props));
  });

  it('passes an unknown type through with its name', () => {
    const result = normaliseNotification({ _AMQ_NotifType: 'SOMETHING_NEW', _AMQ_X: 1 }, clusterId, 'a', at);
    expect(result).toMatchObject({
      kind: 'event',
      event: { type: 'SOMETHING_NEW', brokerTs: null, props: { _AMQ_X: 1 } },
    });
  });

  it('keeps only local events: a peer re-sends remote ones with a larger distance', () => {
    expect(normaliseNotification({ ...consumerCreated, _AMQ_Distance: 1 }, clusterId, 'a', at)).toEqual({
      kind: 'remote',
    });
    expect(
      normaliseNotification({ ...consumerCreated, _AMQ_Distance: undefined }, clusterId, 'a', at).kind,
    ).toBe('event');
  });

  it('skips the events our own subscription causes', () => {
    const own = {
      ...consumerCreated,
      _AMQ_Client_ID: `${OWN_CLIENT_PREFIX}-x`,
      _AMQ_Address: 'activemq.notifications',
    };
    expect(normaliseNotification(own, clusterId, 'a', at)).toEqual({ kind: 'own' });
  });

  it('skips the bindings of notification subscribers (ours carry no client id)', () => {
    const binding = {
      _AMQ_NotifType: 'BINDING_ADDED',
      _AMQ_Address: 'activemq.notifications',
      _AMQ_RoutingName: 'uuid',
    };
    expect(normaliseNotification(binding, clusterId, 'a', at)).toEqual({ kind: 'own' });
    expect(normaliseNotification({ ...binding, _AMQ_Address: 'orders' }, clusterId, 'a', at).kind).toBe(
      'event',
    );
  });

  it('does not promote the notification address of a session event as its address', () => {
    const session = {
      _AMQ_NotifType: 'SESSION_CREATED',
      _AMQ_Address: 'activemq.notifications',
      _AMQ_SessionName: 's',
    };
    expect(normaliseNotification(session, clusterId, 'a', at)).toMatchObject({
      event: { address: null, session: 's' },
    });
  });

  it('reports a notification without a type as malformed', () => {
    expect(normaliseNotification({ _AMQ_Address: 'x' }, clusterId, 'a', at)).toMatchObject({
      kind: 'malformed',
    });
    expect(normaliseNotification(undefined, clusterId, 'a', at)).toMatchObject({ kind: 'malformed' });
  });

  it('carries longs past 2^53 (8-byte buffers) as exact decimal strings', () => {
    const big = Buffer.alloc(8);
    big.writeBigInt64BE(9_007_199_254_740_993n);
    const result = normaliseNotification({ ...consumerCreated, _AMQ_Message_ID: big }, clusterId, 'a', at);
    expect(result).toMatchObject({ event: { props: { _AMQ_Message_ID: '9007199254740993' } } });
  });

  it('hands the event over with the JSON it is published as', () => {
    const result = normaliseNotification(consumerCreated, clusterId, 'a', at);
    if (result.kind !== 'event') throw new Error(result.kind);
    expect(JSON.parse(result.json)).toEqual(result.event);
  });

  // Anyone allowed to send to the notification address can send these: each was published, refused
  // by the contract at every retry, and held up every event behind it (or, a timestamp past what a
  // Date holds, threw out of the AMQP receiver).
  it('reports what breaks the contract or cannot be published as malformed, without throwing', () => {
    const longType = normaliseNotification({ _AMQ_NotifType: 'X'.repeat(101) }, clusterId, 'a', at);
    expect(longType).toEqual({ kind: 'malformed', reason: expect.stringContaining('type') });
    const huge = { ...consumerCreated, _AMQ_Note: 'n'.repeat(MAX_EVENT_JSON_CHARS) };
    expect(normaliseNotification(huge, clusterId, 'a', at)).toEqual({
      kind: 'malformed',
      reason: expect.stringContaining(`more than ${MAX_EVENT_JSON_CHARS}`),
    });
  });

  // The normaliser builds events to fit the contract instead of checking each against it: this
  // holds what it builds from whatever a sender may put in a notification to the schema.
  it('builds only events the contract takes, or says why not', () => {
    const eight = Buffer.alloc(8);
    eight.writeBigInt64BE(-5n);
    const odd: unknown[] = [
      'x'.repeat(5000),
      '',
      0,
      -0,
      NaN,
      Infinity,
      -Infinity,
      2 ** 60,
      true,
      null,
      undefined,
      10n ** 30n,
      eight,
      Buffer.from('abc'),
      new Date(0),
      [1, 'a', null],
      { a: { b: 1 } },
      Symbol('s'),
      () => 1,
      '\u0000\ud800',
    ];
    const fields = [
      '_AMQ_Address',
      '_AMQ_RoutingName',
      '_AMQ_ConsumerName',
      '_AMQ_SessionName',
      '_AMQ_ConnectionName',
      '_AMQ_RemoteAddress',
      '_AMQ_User',
      '_AMQ_ValidatedUser',
      '_AMQ_NotifTimestamp',
      '_AMQ_Other',
    ];
    const outcomes = new Set<string>();
    const check = (properties: Record<string, unknown>, node = 'node-a') => {
      const result = normaliseNotification(properties, clusterId, node, at);
      outcomes.add(result.kind);
      if (result.kind !== 'event') return;
      expect(RawBrokerEventSchema.safeParse(result.event).error).toBeUndefined();
      // What the event store checks when it comes off the bus.
      expect(RawBrokerEventSchema.safeParse(JSON.parse(result.json)).error).toBeUndefined();
    };
    for (const field of fields) for (const value of odd) check({ ...consumerCreated, [field]: value });
    for (const type of ['T'.repeat(100), 'T'.repeat(101), 'SESSION_CREATED', 'BINDING_ADDED'])
      check({ ...consumerCreated, _AMQ_NotifType: type });
    for (const node of ['n'.repeat(200), 'n'.repeat(201), '']) check(consumerCreated, node);
    expect([...outcomes].sort()).toEqual(['event', 'malformed']);
  });

  it('keeps an event whose timestamp no ISO instant holds, without a broker time', () => {
    for (const stamp of [9e15, 2 ** 48, 1e20, -1, Date.UTC(10000, 0, 1)]) {
      const result = normaliseNotification(
        { ...consumerCreated, _AMQ_NotifTimestamp: stamp },
        clusterId,
        'a',
        at,
      );
      expect(result).toMatchObject({
        kind: 'event',
        event: { brokerTs: null, props: { _AMQ_NotifTimestamp: stamp } },
      });
    }
  });
});
