import type { Msg, NatsConnection } from 'nats';
import { JetStreamPublisher } from './jetstream-publisher';

/** A connection that records publishes and lets the test answer them on the reply subscription. */
function fakeConnection() {
  const published: { subject: string; reply: string; msgId?: string }[] = [];
  let deliver: ((err: Error | null, msg: Msg) => void) | undefined;
  const nc = {
    subscribe: (_subject: string, { callback }: { callback: (err: Error | null, msg: Msg) => void }) => {
      deliver = callback;
      return { unsubscribe: () => undefined };
    },
    publish: (
      subject: string,
      _data: Uint8Array,
      { reply, headers }: { reply: string; headers: { get(k: string): string } },
    ) => void published.push({ subject, reply, msgId: headers.get('Nats-Msg-Id') }),
  } as unknown as NatsConnection;
  const answer = (reply: string, body: unknown) =>
    deliver!(null, { subject: reply, headers: undefined, json: () => body } as unknown as Msg);
  return { nc, published, answer };
}

describe('JetStreamPublisher', () => {
  afterEach(() => jest.useRealTimers());

  it('matches each acknowledgement to its publish, whatever their order', async () => {
    const { nc, published, answer } = fakeConnection();
    const sut = new JetStreamPublisher();
    const first = sut.publish(nc, 'a', new Uint8Array(), { msgId: 'one', timeoutMs: 5000 });
    const second = sut.publish(nc, 'a', new Uint8Array(), { msgId: 'two', timeoutMs: 5000 });
    expect(published.map((p) => p.msgId)).toEqual(['one', 'two']);
    answer(published[1].reply, { stream: 'S', seq: 8, duplicate: true });
    answer(published[0].reply, { stream: 'S', seq: 7 });
    await expect(first).resolves.toEqual({ seq: 7, duplicate: false });
    await expect(second).resolves.toEqual({ seq: 8, duplicate: true });
    sut.close();
  });

  it('rejects a publish the stream refused, and one never acknowledged once its time is up', async () => {
    jest.useFakeTimers();
    const { nc, published, answer } = fakeConnection();
    const sut = new JetStreamPublisher();
    const refused = sut.publish(nc, 'a', new Uint8Array(), { msgId: 'r', timeoutMs: 5000 });
    const lost = sut.publish(nc, 'a', new Uint8Array(), { msgId: 'l', timeoutMs: 1000 });
    answer(published[0].reply, { error: { code: 503, description: 'stream offline' } });
    await expect(refused).rejects.toThrow('503 stream offline');
    const outcome = lost.catch((err: Error) => err.message);
    jest.advanceTimersByTime(1250);
    await expect(outcome).resolves.toMatch(/timeout/);
    // A late acknowledgement of a publish given up is ignored.
    answer(published[1].reply, { stream: 'S', seq: 9 });
    expect(jest.getTimerCount()).toBe(0);
    sut.close();
  });
});
