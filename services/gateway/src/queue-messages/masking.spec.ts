import type { BrowsedMessage, ExportedMessage } from '@artemis-studio/contracts';
import { exportedLine } from './exported-message.fixture';
import { MASK, pathSegments } from '@artemis-studio/contracts';
import { maskExported, maskMessage } from './masking';

const message = (
  preview: string | null,
  truncated = false,
  encoding: 'text' | 'base64' = 'text',
): BrowsedMessage => ({
  messageId: '1',
  userId: null,
  type: 'text',
  protocol: 'AMQP',
  address: 'orders',
  durable: true,
  priority: 4,
  redelivered: false,
  largeMessage: false,
  persistentSize: 100,
  timestamp: null,
  expiration: null,
  properties: { 'applicationProperties.email': 'a@b.c', 'applicationProperties.n': 3, JMSType: 'order' },
  propertyTypes: {
    'applicationProperties.email': 'string',
    'applicationProperties.n': 'int',
    JMSType: 'string',
  },
  body: { preview, encoding, truncated, omitted: null, masked: null },
});

const rules = (properties: string[], bodyPaths: string[]) => ({ properties, bodyPaths });

describe('masking a browsed message', () => {
  it('masks a property by its name, with or without its section', () => {
    const masked = maskMessage(message(null), rules(['email'], []));
    expect(masked.properties).toEqual({
      'applicationProperties.email': MASK,
      'applicationProperties.n': 3,
      JMSType: 'order',
    });
    // Its type is dropped with its value: nothing downstream takes *** for the broker's value.
    expect(masked.propertyTypes).toEqual({ 'applicationProperties.n': 'int', JMSType: 'string' });
    expect(
      maskMessage(message(null), rules(['applicationProperties.n'], [])).properties[
        'applicationProperties.n'
      ],
    ).toBe(MASK);
  });

  it('masks values at JSON paths in a JSON body, arrays included, and says so', () => {
    const body = JSON.stringify({
      customer: { email: 'a@b.c', name: 'Al' },
      cards: [{ pan: '4111' }, { pan: '5500' }],
    });
    const masked = maskMessage(
      message(body),
      rules([], ['$.customer.email', '$.cards[*].pan', '$.missing.x']),
    );
    expect(JSON.parse(masked.body.preview!)).toEqual({
      customer: { email: MASK, name: 'Al' },
      cards: [{ pan: MASK }, { pan: MASK }],
    });
    expect(masked.body.masked).toBe('masked');
    expect(JSON.parse(maskMessage(message(body), rules([], ['$.cards[1]'])).body.preview!).cards[1]).toBe(
      MASK,
    );
  });

  it('withholds a body the rules cannot be applied to: not JSON, or cut by the broker', () => {
    expect(maskMessage(message('email=a@b.c'), rules([], ['$.email'])).body).toEqual(
      expect.objectContaining({ preview: null, masked: 'withheld' }),
    );
    expect(
      maskMessage(message('{"email": "a@b.c", "rest": "', true), rules([], ['$.email'])).body.preview,
    ).toBeNull();
  });

  it('masks a bytes body as the JSON its bytes spell, and withholds bytes that spell none', () => {
    const base64 = (text: string) => Buffer.from(text).toString('base64');
    const masked = maskMessage(
      message(base64('{"card":"4111","n":1}'), false, 'base64'),
      rules([], ['$.card']),
    );
    expect(masked.body).toEqual(
      expect.objectContaining({
        preview: base64(`{"card":"${MASK}","n":1}`),
        encoding: 'base64',
        masked: 'masked',
      }),
    );
    expect(maskMessage(message('//4AQQ==', false, 'base64'), rules([], ['$.card'])).body).toEqual(
      expect.objectContaining({ preview: null, masked: 'withheld' }),
    );
  });

  it('reads a path as its steps', () => {
    expect(pathSegments('$.a[*].b[2]')).toEqual([{ name: 'a' }, 'any', { name: 'b' }, { index: 2 }]);
  });
});

describe('masking an exported message', () => {
  const properties: ExportedMessage['properties'] = [
    { name: 'email', type: 'string', value: 'a@b.c' },
    { name: 'n', type: 'int', value: '3' },
  ];
  const exported = (data: string | null, truncated = false) => exportedLine(data, { properties, truncated });

  it('marks a masked property so an import leaves it out, and masks the body as a browse does', () => {
    const masked = maskExported(exported('{"card":{"pan":"4111"},"n":1}'), rules(['email'], ['$.card.pan']));
    expect(masked.properties).toEqual([
      { name: 'email', type: 'string', value: MASK, masked: true },
      { name: 'n', type: 'int', value: '3' },
    ]);
    expect(masked.body).toEqual({
      encoding: 'text',
      data: '{"card":{"pan":"***"},"n":1}',
      truncated: false,
      masked: 'masked',
    });
    expect(maskExported(exported('not json'), rules([], ['$.a'])).body).toEqual(
      expect.objectContaining({ data: null, masked: 'withheld' }),
    );
    expect(maskExported(exported('{"a":1}', true), rules([], ['$.a'])).body.masked).toBe('withheld');
    const untouched = exported('{"a":1}');
    expect(maskExported(untouched, rules([], []))).toBe(untouched);
  });
});
