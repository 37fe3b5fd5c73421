import { CredentialWatch } from './credential-watch';

describe('CredentialWatch', () => {
  it('ends exactly the streams whose credential went bad, asking once for all', async () => {
    const watch = new CredentialWatch();
    const ended: string[] = [];
    const good = Buffer.from('aa', 'hex');
    const revoked = Buffer.from('bb', 'hex');
    watch.hold({ n: 1 }, { kind: 'session', digest: good }, () => ended.push('good session'));
    watch.hold({ n: 2 }, { kind: 'session', digest: revoked }, () => ended.push('revoked session'));
    watch.hold({ n: 3 }, { kind: 'session', digest: revoked }, () => ended.push('revoked session, 2nd tab'));
    watch.hold({ n: 4 }, { kind: 'token', id: 't1' }, () => ended.push('revoked token'));
    watch.hold({ n: 5 }, null, () => ended.push('anonymous'));
    const check = jest.fn(async (sessions: Buffer[], tokens: string[]) => {
      expect(sessions).toHaveLength(2);
      expect(tokens).toEqual(['t1']);
      return { sessions: new Set(['bb']), tokens: new Set(['t1']) };
    });
    expect(await watch.sweep(check)).toBe(3);
    expect(check).toHaveBeenCalledTimes(1);
    expect(ended.sort()).toEqual(['revoked session', 'revoked session, 2nd tab', 'revoked token']);
    expect(await watch.sweep(async () => ({ sessions: new Set(['aa']), tokens: new Set() }))).toBe(1);
  });

  it('forgets a stream once it closes', async () => {
    const watch = new CredentialWatch();
    const stream = {};
    watch.hold(stream, { kind: 'token', id: 't' }, () => {
      throw new Error('a closed stream is not ended again');
    });
    watch.release(stream);
    expect(await watch.sweep(async () => ({ sessions: new Set(), tokens: new Set(['t']) }))).toBe(0);
  });
});
