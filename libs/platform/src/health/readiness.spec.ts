import { assessReadiness } from './readiness';

describe('assessReadiness', () => {
  it('is ready only when every check passes', async () => {
    const up = { name: 'db', check: async () => ({ ok: true, detail: 'ok' }) };
    const down = { name: 'bus', check: async () => ({ ok: false, detail: 'reconnecting' }) };
    expect(await assessReadiness([up])).toEqual({ ready: true, checks: { db: { ok: true, detail: 'ok' } } });
    expect((await assessReadiness([up, down])).ready).toBe(false);
  });

  it('turns a throwing or hung check into a failure with its reason', async () => {
    const throws = { name: 'a', check: async () => Promise.reject(new Error('boom')) };
    const hangs = { name: 'b', check: () => new Promise<never>(() => undefined) };
    const report = await assessReadiness([throws, hangs], 50);
    expect(report).toEqual({
      ready: false,
      checks: { a: { ok: false, detail: 'boom' }, b: { ok: false, detail: 'no answer within 50 ms' } },
    });
  });
});
