import { SignalSchema } from '@artemis-studio/contracts';
import { randomUUID } from 'node:crypto';
import { decode, encode } from './codec';

describe('codec', () => {
  const signal = { topic: 'queues' as const, clusterId: randomUUID(), ts: new Date().toISOString() };

  it('round-trips a valid payload', () => {
    expect(decode(SignalSchema, encode(SignalSchema, signal, 'signal'))).toEqual({
      ok: true,
      value: signal,
      json: JSON.stringify(signal),
    });
  });

  it.each([
    ['invalid UTF-8', Uint8Array.of(0xff, 0xfe)],
    ['not JSON', new TextEncoder().encode('{nope')],
    ['schema violation', new TextEncoder().encode(JSON.stringify({ ...signal, topic: 'bogus' }))],
  ])('reports %s without throwing', (_what, bytes) => {
    const decoded = decode(SignalSchema, bytes);
    expect(decoded.ok).toBe(false);
  });

  it('names the offending field', () => {
    const decoded = decode(
      SignalSchema,
      new TextEncoder().encode(JSON.stringify({ ...signal, clusterId: 'x' })),
    );
    expect(decoded).toEqual({ ok: false, reason: expect.stringContaining('clusterId') });
  });

  it('refuses to encode a payload that breaks the contract', () => {
    expect(() => encode(SignalSchema, { ...signal, topic: 'bogus' } as never, 'signal')).toThrow(TypeError);
  });

  it('hands over the body as received, keys it does not know included', () => {
    const json = JSON.stringify({ ...signal, extra: 1 });
    expect(decode(SignalSchema, new TextEncoder().encode(json))).toEqual({ ok: true, value: signal, json });
  });
});
