import type { Delivery } from '@artemis-studio/bus';
import { RawBrokerEventSchema, StoredBrokerEventSchema } from '@artemis-studio/contracts';
import { rawBrokerEvent } from '@artemis-studio/testing';
import type { Pending } from '../intake/intake-buffer';
import { storedEventBody } from './stored-event';

const raw = rawBrokerEvent({ brokerTs: null, remoteAddress: null, user: '}"seq"' });
/** As the bus hands it over: the payload validated from the body as received. */
const pending = (body: string): Pending => ({
  event: RawBrokerEventSchema.parse(JSON.parse(body)),
  delivery: { json: body, data: Buffer.from(body) } as Partial<Delivery> as Delivery,
  enqueuedAt: 0,
});

const storedEventJson = (p: Pending, seq: number, prevSeq: number) =>
  Buffer.from(storedEventBody(p, seq, prevSeq)).toString('utf8');

describe('storedEventBody', () => {
  it('is the raw event with its seq and previous seq, valid as a stored event', () => {
    const { user: _user, ...plain } = raw;
    const body = JSON.stringify({ ...plain, user: 'app' });
    const json = storedEventJson(pending(body), 42, 40);
    expect(json.startsWith(body.slice(0, -1))).toBe(true);
    expect(StoredBrokerEventSchema.parse(JSON.parse(json))).toEqual({
      ...plain,
      user: 'app',
      seq: 42,
      prevSeq: 40,
    });
  });

  it('keeps text beyond ASCII as it came, byte for byte', () => {
    const body = JSON.stringify({ ...raw, user: 'zoë ☃ 𝄞' });
    const json = storedEventJson(pending(body), 42, 40);
    expect(StoredBrokerEventSchema.parse(JSON.parse(json)).user).toBe('zoë ☃ 𝄞');
  });

  it('never carries two seqs when the raw body already names one', () => {
    const body = JSON.stringify({ ...raw, seq: 7 });
    const json = storedEventJson(pending(body), 42, 40);
    expect(json.match(/"seq":/g)).toHaveLength(1);
    expect(StoredBrokerEventSchema.parse(JSON.parse(json))).toEqual({ ...raw, seq: 42, prevSeq: 40 });
  });
});
