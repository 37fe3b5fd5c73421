import { z } from 'zod';
import { randomUUID } from 'node:crypto';
import {
  BrokerEventSchema,
  CreateAlertRuleRequestSchema,
  CreateClusterRequestSchema,
  SUGGESTED_ALERT_RULES,
  RawBrokerEventSchema,
  SignalSchema,
  channels,
  parseTopics,
  subjects,
} from './index';

describe('parseTopics', () => {
  it('keeps known topics in canonical order and drops unknown ones', () => {
    expect(parseTopics('queues, bogus,events,topology,queues')).toEqual(['topology', 'queues', 'events']);
  });

  it.each([undefined, '', 'bogus,,nope'])('falls back to the signal defaults for %p', (csv) => {
    expect(parseTopics(csv)).toEqual(['topology', 'health', 'queues']);
  });
});

describe('subjects', () => {
  const clusterId = randomUUID();

  it('builds the public subjects of the brief', () => {
    expect(subjects.signal(clusterId, 'queues')).toBe(`studio.v1.cluster.${clusterId}.signal.queues`);
    expect(subjects.eventRaw(clusterId)).toBe(`studio.v1.cluster.${clusterId}.event.raw`);
    expect(subjects.eventStored(clusterId)).toBe(`studio.v1.cluster.${clusterId}.event.stored`);
    expect(subjects.rpc('event-store.since')).toBe('studio.v1.rpc.event-store.since');
  });

  it('channel patterns match every cluster', () => {
    expect(channels.eventRaw.pattern).toBe('studio.v1.cluster.*.event.raw');
    expect(channels.signal.pattern).toBe('studio.v1.cluster.*.signal.*');
  });
});

describe('schemas', () => {
  const raw = {
    eventId: randomUUID(),
    clusterId: randomUUID(),
    node: 'node-a',
    type: 'CONSUMER_CREATED',
    brokerTs: '2026-11-29T10:00:00.000Z',
    receivedAt: '2026-11-29T10:00:00.010Z',
    address: 'orders',
    queue: 'orders',
    consumer: '7',
    session: 'abc',
    connection: null,
    remoteAddress: '127.0.0.1:50000',
    user: null,
    props: { _AMQ_NotifType: 'CONSUMER_CREATED', _AMQ_Distance: 0, _AMQ_User: null },
  };

  it('accepts a raw broker event and requires seq only once stored', () => {
    expect(RawBrokerEventSchema.parse(raw)).toEqual(raw);
    expect(BrokerEventSchema.safeParse(raw).success).toBe(false);
    expect(BrokerEventSchema.parse({ ...raw, seq: 42 }).seq).toBe(42);
  });

  it("takes a broker event's properties only as strings, finite numbers, booleans and nulls", () => {
    const props = (p: unknown) => RawBrokerEventSchema.safeParse({ ...raw, props: p });
    expect(props({}).success).toBe(true);
    expect(props({ a: 'x', b: -1.5, c: false, d: null }).success).toBe(true);
    for (const bad of [null, [], ['x'], 'x', { a: { b: 1 } }, { a: [1] }, { a: Infinity }, { a: undefined }])
      expect(props(bad).error?.issues[0]?.path).toEqual(['props']);
    expect(z.toJSONSchema(RawBrokerEventSchema, { unrepresentable: 'any' }).properties?.props).toMatchObject({
      type: 'object',
      additionalProperties: { type: ['string', 'number', 'boolean', 'null'] },
    });
  });

  it('rejects a signal for an unknown topic or a malformed cluster id', () => {
    const ts = new Date().toISOString();
    expect(SignalSchema.safeParse({ topic: 'queues', clusterId: randomUUID(), ts }).success).toBe(true);
    expect(SignalSchema.safeParse({ topic: 'events', clusterId: randomUUID(), ts }).success).toBe(false);
    expect(SignalSchema.safeParse({ topic: 'queues', clusterId: 'nope', ts }).success).toBe(false);
  });

  it('validates cluster registration: URL schemes, unique node names, no unknown keys', () => {
    const ok = {
      name: 'prod',
      nodes: [{ name: 'a', jolokiaUrl: 'http://h:8161/console/jolokia', amqpUrl: 'amqp://h:61616' }],
    };
    expect(CreateClusterRequestSchema.safeParse(ok).success).toBe(true);
    const bad = [
      { ...ok, nodes: [{ name: 'a', jolokiaUrl: 'ftp://h' }] },
      { ...ok, nodes: [{ name: 'a', jolokiaUrl: 'http://h', amqpUrl: 'http://h' }] },
      { ...ok, nodes: [ok.nodes[0], ok.nodes[0]] },
      { ...ok, nodes: [] },
      { ...ok, extra: true },
    ];
    for (const body of bad) expect(CreateClusterRequestSchema.safeParse(body).success).toBe(false);
  });
});

describe('the suggested alert rules', () => {
  it('are each a rule the API accepts as it is, under a name of its own', () => {
    for (const rule of SUGGESTED_ALERT_RULES) expect(CreateAlertRuleRequestSchema.parse(rule)).toBeTruthy();
    expect(new Set(SUGGESTED_ALERT_RULES.map((r) => r.name)).size).toBe(SUGGESTED_ALERT_RULES.length);
  });
});
