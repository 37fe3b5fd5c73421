import type { BrowsedMessage } from '@artemis-studio/contracts';
import { describe, expect, it } from 'vitest';
import { bodyNote, bodyScanText, bytesView, matchedText, parseHeaders, previewLine } from './message-text';

const message = (body: BrowsedMessage['body'], largeMessage = false) =>
  ({ messageId: '1', largeMessage, body }) as BrowsedMessage;

describe('what the messages card says', () => {
  it('never passes a cut body off as whole, and says how to see more', () => {
    const cut = message({ encoding: 'text', preview: 'abc', truncated: true, omitted: 744, masked: null });
    expect(previewLine(cut)).toBe('abc…');
    expect(bodyNote(cut)).toMatch(
      /^Cut by the broker: 744 more not shown\. .*management-message-attribute-size-limit/,
    );
    expect(
      bodyNote(
        message({ encoding: 'text', preview: 'whole', truncated: false, omitted: null, masked: null }),
      ),
    ).toBeNull();
  });

  it("says a large message's body is not shown rather than showing the broker's placeholder", () => {
    const large = message(
      { encoding: 'text', preview: null, truncated: true, omitted: null, masked: null },
      true,
    );
    expect(previewLine(large)).toBe('(a large message: its body is not shown)');
    expect(bodyNote(large)).toMatch(/^A large message/);
  });

  it('says what the masking rules did to a body', () => {
    const withheld = message({
      encoding: 'text',
      preview: null,
      truncated: false,
      omitted: null,
      masked: 'withheld',
    });
    expect(previewLine(withheld)).toBe('(withheld by the masking rules)');
    expect(bodyNote(withheld)).toMatch(/^Withheld: this cluster masks values in message bodies/);
    expect(
      bodyNote(
        message({ encoding: 'text', preview: '{}', truncated: false, omitted: null, masked: 'masked' }),
      ),
    ).toMatch(/^Masked: values at this cluster's masking paths/);
  });

  it('says "at least" where the broker stopped counting', () => {
    expect(matchedText({ count: 12, atLeast: false }, 200)).toBe('12 match');
    expect(matchedText({ count: 200, atLeast: true }, 200)).toBe(
      'at least 200 match (the broker looked at the first 200 messages only)',
    );
  });

  it("says what a body filter's read found, and what no action reaches", () => {
    const scan = { unselectable: 0, failed: 0, firstFailure: null, reads: 3 };
    expect(bodyScanText({ ...scan, scanned: 1002, matched: 22, complete: true, stoppedBy: null })).toBe(
      '22 match of 1,002 read (the whole queue)',
    );
    expect(
      bodyScanText({
        scanned: 300,
        reads: 3,
        matched: 26,
        unselectable: 3,
        failed: 2,
        firstFailure: 'no such key: status',
        complete: false,
        stoppedBy: 'page',
      }),
    ).toBe(
      'at least 26 match of 300 read (stopped once the page was full) · 3 carry no message id of their own: ' +
        'no action reaches them (an export does) · 2 could not be read by the expression (no such key: status)',
    );
  });

  it('reads headers as name=value lines, and says which line is not one', () => {
    expect(parseHeaders('kind=order\n\ntrace = a=b')).toEqual({
      headers: { kind: 'order', trace: ' a=b' },
      properties: [],
    });
    expect(parseHeaders('attempt:int=3\norderId:long = 9007199254740993\nurn:isbn=x')).toEqual({
      headers: { 'urn:isbn': 'x' },
      properties: [
        { name: 'attempt', type: 'int', value: '3' },
        { name: 'orderId', type: 'long', value: '9007199254740993' },
      ],
    });
    expect(parseHeaders('urgent:boolean=yes')).toEqual({ error: 'line 1: a boolean is true or false' });
    expect(parseHeaders('kind=order\nno equals')).toEqual({ error: 'line 2 is not name=value' });
  });

  it('shows a bytes body as hex in the table, and as hex, UTF-8 text or base64 in the drawer', () => {
    const base64 = btoa(String.fromCharCode(...Array.from({ length: 20 }, (_, i) => i + 0x41)));
    const bytes = message({
      encoding: 'base64',
      preview: base64,
      truncated: false,
      omitted: null,
      masked: null,
    });
    expect(previewLine(bytes)).toBe(`bytes: 41 42 43 44 45 46 47 48 49 4a 4b 4c 4d 4e 4f 50 51 52 53 54`);
    expect(bytesView(base64, 'hex')).toBe(
      '00000000  41 42 43 44 45 46 47 48 49 4a 4b 4c 4d 4e 4f 50\n00000010  51 52 53 54',
    );
    expect(bytesView(base64, 'text')).toBe('ABCDEFGHIJKLMNOPQRST');
    expect(bytesView(base64, 'base64')).toBe(base64);
    expect(previewLine({ ...bytes, body: { ...bytes.body, truncated: true } })).toMatch(/54 …$/);
  });
});
