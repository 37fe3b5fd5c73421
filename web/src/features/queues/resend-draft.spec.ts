import type { BrowsedMessage } from '@artemis-studio/contracts';
import { describe, expect, it } from 'vitest';
import { resendDraft } from './resend-draft';

const message = (over: Partial<BrowsedMessage> = {}): BrowsedMessage => ({
  messageId: '7',
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
  properties: {
    'applicationProperties.attempt': 3,
    'applicationProperties.kind': 'order',
    'applicationProperties.ratio': 0.5,
    'extraProperties._AMQ_ORIG_QUEUE': 'orders',
    'properties.creationTime': 1,
  },
  propertyTypes: {
    'applicationProperties.attempt': 'short',
    'applicationProperties.kind': 'string',
    'applicationProperties.ratio': 'double',
    'extraProperties._AMQ_ORIG_QUEUE': 'string',
    'properties.creationTime': 'long',
  },
  body: { preview: '{"order":42}', encoding: 'text', truncated: false, omitted: null, masked: null },
  ...over,
});

describe('resendDraft', () => {
  it("keeps the body and the application's properties with their types, and says what it widens", () => {
    expect(resendDraft(message())).toEqual({
      body: '{"order":42}',
      encoding: 'text',
      headers: 'attempt:int=3\nkind=order\nratio:double=0.5',
      durable: true,
      widened: ['attempt (short as int)'],
    });
  });

  it('refuses what would not send the message as it is', () => {
    const cut = { ...message().body, truncated: true };
    expect(resendDraft(message({ body: cut }))).toEqual({ refusal: expect.stringMatching(/would cut it/) });
    const masked = { ...message().body, masked: 'masked' as const };
    expect(resendDraft(message({ body: masked }))).toEqual({
      refusal: expect.stringMatching(/send the masks/),
    });
    expect(resendDraft(message({ largeMessage: true }))).toEqual({ refusal: expect.stringMatching(/large/) });
    // A masked property comes without its type.
    const { 'applicationProperties.kind': _kind, ...typed } = message().propertyTypes;
    expect(resendDraft(message({ propertyTypes: typed }))).toEqual({
      refusal: 'its properties kind are masked on this cluster: a resend would lose them',
    });
  });
});
