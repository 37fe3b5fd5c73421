import { digest, hashPassword, newTokenSecret, verifyPassword } from './secrets';

describe('secrets', () => {
  it('verifies a password against its hash and refuses any other', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).not.toContain('correct');
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(await verifyPassword('correct horse batterY', hash)).toBe(false);
    expect(await verifyPassword('x', 'not-a-hash')).toBe(false);
  });

  it('salts each hash', async () => {
    expect(await hashPassword('same password')).not.toBe(await hashPassword('same password'));
  });

  it('makes recognisable tokens and stores only their digest', () => {
    const token = newTokenSecret();
    expect(token).toMatch(/^sst_[A-Za-z0-9_-]{43}$/);
    expect(digest(token)).toHaveLength(32);
    expect(digest(token).equals(digest(token))).toBe(true);
  });
});
