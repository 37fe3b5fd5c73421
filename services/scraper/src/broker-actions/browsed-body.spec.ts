import { browsedBody, unescapeBytes } from './browsed-body';

const every = Buffer.from([...Array(256).keys()]);
/** How Artemis 2.40 writes bytes in an AMQP message's browsed text. */
const escaped = (bytes: Buffer) =>
  [...bytes]
    .map((b) =>
      b >= 0x20 && b < 0x7f && b !== 0x5c ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`,
    )
    .join('');

describe("a browsed message's body", () => {
  it('reads back every byte of an AMQP body the broker escaped, a data section or a binary value', () => {
    expect(unescapeBytes(`Data{${escaped(every)}}`, false)).toEqual(every);
    expect(unescapeBytes('\\xff\\xfe\\x00A\\x5c', false)).toEqual(
      Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x5c]),
    );
  });

  it('drops a byte whose escape the broker cut through, and keeps what came before', () => {
    expect(unescapeBytes('Data{AB\\x8', true)).toEqual(Buffer.from('AB'));
    expect(unescapeBytes('AB\\', true)).toEqual(Buffer.from('AB'));
  });

  it('gives a core bytes body as base64 of its signed bytes, cut when as long as the limit', () => {
    const body = browsedBody({ BodyPreview: [-1, -2, 0, 65] }, true, 256);
    expect(body).toEqual({
      preview: '//4AQQ==',
      encoding: 'base64',
      truncated: false,
      omitted: null,
      masked: null,
    });
    expect(browsedBody({ BodyPreview: [1, 2, 3, 4] }, true, 4).truncated).toBe(true);
  });

  it('gives an escaped bytes body as base64, cut where the broker said, without a count it made in characters', () => {
    expect(browsedBody({ text: `Data{${escaped(every.subarray(0, 10))}, + 492 more` }, true, 256)).toEqual({
      preview: every.subarray(0, 10).toString('base64'),
      encoding: 'base64',
      truncated: true,
      omitted: null,
      masked: null,
    });
  });

  it('keeps a text body as text', () => {
    expect(browsedBody({ text: 'héllo' }, false, 256)).toEqual({
      preview: 'héllo',
      encoding: 'text',
      truncated: false,
      omitted: null,
      masked: null,
    });
  });
});
