import type { BrowsedMessage } from '@artemis-studio/contracts';
import { describe, expect, it } from 'vitest';
import { bodyNote, matchedText, parseHeaders, previewLine } from './message-text';

const message = (body: BrowsedMessage['body'], largeMessage = false) =>
  ({ messageId: '1', largeMessage, body }) as BrowsedMessage;

describe('what the messages card says', () => {
  it('never passes a cut body off as whole, and says how to see more', () => {
    const cut = message({ preview: 'abc', truncated: true, omitted: 744, masked: null });
    expect(previewLine(cut)).toBe('abc…');
    expect(bodyNote(cut)).toMatch(
      /^Cut by the broker: 744 more not shown\. .*management-message-attribute-size-limit/,
    );
    expect(bodyNote(message({ preview: 'whole', truncated: false, omitted: null, masked: null }))).toBeNull();
  });

  it("says a large message's body is not shown rather than showing the broker's placeholder", () => {
    const large = message({ preview: null, truncated: true, omitted: null, masked: null }, true);
    expect(previewLine(large)).toBe('(a large message: its body is not shown)');
    expect(bodyNote(large)).toMatch(/^A large message/);
  });

  it('says what the masking rules did to a body', () => {
    const withheld = message({ preview: null, truncated: false, omitted: null, masked: 'withheld' });
    expect(previewLine(withheld)).toBe('(withheld by the masking rules)');
    expect(bodyNote(withheld)).toMatch(/^Withheld: this cluster masks values in message bodies/);
    expect(bodyNote(message({ preview: '{}', truncated: false, omitted: null, masked: 'masked' }))).toMatch(
      /^Masked: values at this cluster's masking paths/,
    );
  });

  it('says "at least" where the broker stopped counting', () => {
    expect(matchedText({ count: 12, atLeast: false }, 200)).toBe('12 match');
    expect(matchedText({ count: 200, atLeast: true }, 200)).toBe(
      'at least 200 match (the broker looked at the first 200 messages only)',
    );
  });

  it('reads headers as name=value lines, and says which line is not one', () => {
    expect(parseHeaders('kind=order\n\ntrace = a=b')).toEqual({ headers: { kind: 'order', trace: ' a=b' } });
    expect(parseHeaders('kind=order\nno equals')).toEqual({ error: 'line 2 is not name=value' });
  });
});
