import { SendMessageRequestSchema } from '@artemis-studio/contracts';
import { types } from 'rhea-promise';
import { amqpMessageOf, typedValue } from './amqp-send';

describe('an AMQP message from a send', () => {
  it('types each property as asked, a long as its eight bytes', () => {
    expect(typedValue({ name: 'n', type: 'int', value: '300' })).toEqual(types.wrap_int(300));
    expect(typedValue({ name: 'n', type: 'double', value: '1.5' })).toEqual(types.wrap_double(1.5));
    expect(typedValue({ name: 'n', type: 'boolean', value: 'false' })).toBe(false);
    const long = typedValue({ name: 'n', type: 'long', value: '9007199254740993' }) as { value: Buffer };
    expect(long.value.readBigInt64BE()).toBe(9007199254740993n);
  });

  it('carries text as an AMQP value, bytes as a data section, headers as strings', () => {
    const text = amqpMessageOf(
      SendMessageRequestSchema.parse({ body: 'hello', headers: { source: 'studio' }, durable: false }),
    );
    expect(text).toEqual(
      expect.objectContaining({
        body: 'hello',
        durable: false,
        application_properties: { source: 'studio' },
      }),
    );
    const bytes = amqpMessageOf(SendMessageRequestSchema.parse({ body: '//4AQQ==', bodyEncoding: 'base64' }));
    expect((bytes.body as { content: Buffer }).content).toEqual(Buffer.from([0xff, 0xfe, 0x00, 0x41]));
  });
});
