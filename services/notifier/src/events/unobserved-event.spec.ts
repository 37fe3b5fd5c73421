import { RawBrokerEventSchema } from '@artemis-studio/contracts';
import { randomUUID } from 'node:crypto';
import { unobservedEvent } from './unobserved-event';

// Published as built, unchecked (EventPublisher.enqueueUnobserved): what it builds must keep the contract.
describe('unobservedEvent', () => {
  it('keeps the contract, with many nodes, an unknown start and a long reason', () => {
    const nodes = Array.from({ length: 40 }, (_, i) => `node-with-a-long-name-${i}`);
    for (const from of [null, '2026-12-03T10:00:00.000Z']) {
      const event = unobservedEvent(randomUUID(), nodes, {
        from,
        until: '2026-12-03T10:00:05.000Z',
        reason: 'r'.repeat(10_000),
      });
      expect(RawBrokerEventSchema.safeParse(event).error).toBeUndefined();
    }
    expect(
      RawBrokerEventSchema.safeParse(
        unobservedEvent(randomUUID(), [], { from: null, until: '2026-12-03T10:00:05.000Z', reason: 'x' }),
      ).success,
    ).toBe(true);
  });
});
