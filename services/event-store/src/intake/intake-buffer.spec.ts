import type { Delivery } from '@artemis-studio/bus';
import type { RawBrokerEvent } from '@artemis-studio/contracts';
import { IntakeBuffer } from './intake-buffer';

const delivery = (streamSeq: number): Delivery => ({
  subject: 's',
  json: '{}',
  data: Buffer.from('{}'),
  streamSeq,
  deliveryCount: 1,
  ack: jest.fn(),
  nak: jest.fn(),
});
const event = { eventId: 'e' } as RawBrokerEvent;

describe('IntakeBuffer', () => {
  it('keeps delivery order, bounded by its capacity in force', () => {
    let capacity = 2;
    const sut = new IntakeBuffer(() => capacity);
    expect(sut.offer(event, delivery(1))).toBe('accepted');
    expect(sut.offer(event, delivery(2))).toBe('accepted');
    expect(sut.offer(event, delivery(3))).toBe('full');
    capacity = 3;
    expect(sut.offer(event, delivery(3))).toBe('accepted');
    expect(sut.peek(10).map((p) => p.delivery.streamSeq)).toEqual([1, 2, 3]);
  });

  it('takes a redelivery of a waiting event as the same entry, with the newest delivery to acknowledge', () => {
    const sut = new IntakeBuffer(() => 10);
    sut.offer(event, delivery(7));
    const again = delivery(7);
    expect(sut.offer(event, again)).toBe('redelivered');
    expect(sut.size).toBe(1);
    expect(sut.peek(1)[0].delivery).toBe(again);
  });

  it('removes a committed batch only', () => {
    const sut = new IntakeBuffer(() => 10);
    [1, 2, 3].forEach((n) => sut.offer(event, delivery(n)));
    sut.remove(sut.peek(2));
    expect(sut.peek(10).map((p) => p.delivery.streamSeq)).toEqual([3]);
  });

  it('wakes a waiting writer as soon as an event arrives', async () => {
    const sut = new IntakeBuffer(() => 10);
    const started = Date.now();
    const waiting = sut.waitForEvents(5000);
    sut.offer(event, delivery(1));
    await waiting;
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
