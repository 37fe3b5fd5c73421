import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Passwords are hashed with scrypt (memory-hard, in Node itself: no native dependency to build).
 * N = 2^15, r = 8 costs 32 MiB and about 50–100 ms a guess; the parameters are stored with each
 * hash so they can be raised later without invalidating old ones.
 */
const SCRYPT = { N: 1 << 15, r: 8, p: 1, keyLength: 32 };

function derive(password: string, salt: Buffer, params: typeof SCRYPT): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(
      password.normalize('NFKC'),
      salt,
      params.keyLength,
      { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r },
      (err, key) => (err ? reject(err) : resolve(key)),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, SCRYPT);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    keyLength: expected.length,
  });
  return timingSafeEqual(actual, expected);
}

/** Hashed once at start: an unknown user costs a guess as long as a known one, so timing tells nothing. */
export const DECOY_HASH = hashPassword(randomBytes(16).toString('hex'));

/** What a session cookie or an API token carries: 256 random bits. */
export const newSessionId = (): string => randomBytes(32).toString('base64url');

/** API tokens carry a prefix, so a leaked one is recognisable (secret scanners, log review). */
export const TOKEN_PREFIX = 'sst_';
export const newTokenSecret = (): string => `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;

/** Sessions and tokens are looked up by digest: the database never holds a usable credential. */
export const digest = (secret: string): Buffer => createHash('sha256').update(secret).digest();

/** A first admin's password when none is configured: printed once, never stored in clear. */
export const generatedPassword = (): string => randomBytes(18).toString('base64url');
