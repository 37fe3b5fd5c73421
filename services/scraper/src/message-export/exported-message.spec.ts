import { EXPORT_BODY_MAX_BYTES } from '@artemis-studio/contracts';
import { message, types, type Message } from 'rhea-promise';
import { keepAmqpTypes } from './amqp-types';
import { exportedBody, exportedMessage } from './exported-message';

const source = { clusterId: '00000000-0000-4000-8000-000000000001', node: 'a', queue: 'orders' };

/** A message as the broker would deliver it: encoded to AMQP's bytes and decoded by rhea. */
const delivered = (m: Parameters<typeof message.encode>[0]) =>
  message.decode(message.encode(m)) as unknown as Message;

describe('an exported message', () => {
  beforeAll(() => keepAmqpTypes());

  it('keeps each property as the type it arrived as, a long past 2^53 exactly', () => {
    const long = Buffer.alloc(8);
    long.writeBigInt64BE(1152921504606846977n);
    const line = exportedMessage(
      delivered({
        body: 'hello',
        durable: true,
        priority: 7,
        message_id: 'm-1',
        creation_time: new Date('2026-12-06T10:00:00Z'),
        application_properties: {
          s: 'text',
          i: types.wrap_int(3),
          l: types.wrap_long(long),
          small: types.wrap_long(5),
          d: types.wrap_double(1),
          b: false,
          sh: types.wrap_short(2),
          f: types.wrap_float(1.5),
        },
        message_annotations: { 'x-opt-ORIG-QUEUE': 'orders' },
      }),
      source,
    );
    expect(line.properties).toEqual([
      { name: 's', type: 'string', value: 'text' },
      { name: 'i', type: 'int', value: '3' },
      { name: 'l', type: 'long', value: '1152921504606846977' },
      { name: 'small', type: 'long', value: '5' },
      { name: 'd', type: 'double', value: '1' },
      { name: 'b', type: 'boolean', value: 'false' },
      { name: 'sh', type: 'short', value: '2' },
      { name: 'f', type: 'float', value: '1.5' },
    ]);
    expect(line).toEqual(
      expect.objectContaining({
        format: 'artemis-studio.message/1',
        source,
        durable: true,
        priority: 7,
        messageId: 'm-1',
        createdAt: '2026-12-06T10:00:00.000Z',
        annotations: { 'x-opt-ORIG-QUEUE': 'orders' },
        body: { encoding: 'text', data: 'hello', truncated: false, masked: null },
      }),
    );
  });

  it('carries bytes as Base64, another AMQP value as JSON, and cuts a body past the limit, saying so', () => {
    const bytes = Buffer.from([0xff, 0x00, 0x41]);
    expect(exportedMessage(delivered({ body: message.data_section(bytes) }), source).body).toEqual({
      encoding: 'base64',
      data: bytes.toString('base64'),
      truncated: false,
      masked: null,
    });
    expect(exportedBody({ total: 3, items: ['a'] })).toEqual({
      encoding: 'value',
      data: '{"total":3,"items":["a"]}',
      truncated: false,
      masked: null,
    });
    const cut = exportedBody('x'.repeat(EXPORT_BODY_MAX_BYTES + 10));
    expect(cut.truncated).toBe(true);
    expect(cut.data).toHaveLength(EXPORT_BODY_MAX_BYTES);
    expect(exportedBody(undefined)).toEqual({ encoding: 'text', data: null, truncated: false, masked: null });
  });
});
