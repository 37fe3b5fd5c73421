import { parse, serialize } from 'cookie';
import type { Request, Response } from 'express';

/**
 * The gateway's cookies (the session, and an OIDC sign-in in flight): HttpOnly (no script reads
 * them), SameSite=Lax (no cross-site POST carries them), and Secure with the `__Host-` prefix
 * (this host only, path /) whenever the console is not reached over plain loopback HTTP, where a
 * browser would refuse a Secure cookie.
 */
export const SESSION_COOKIE = 'studio_session';

const isLoopbackHttp = (req: Request): boolean =>
  req.protocol === 'http' && /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$/.test(req.get('host') ?? '');

export function readCookie(req: Request, name: string): string | undefined {
  const cookies = req.headers.cookie ? parse(req.headers.cookie) : {};
  return cookies[`__Host-${name}`] ?? cookies[name];
}

/** Sets the cookie, or with `maxAgeMs` 0 clears it. */
export function setCookie(req: Request, res: Response, name: string, value: string, maxAgeMs: number): void {
  const secure = !isLoopbackHttp(req);
  res.append(
    'Set-Cookie',
    serialize(secure ? `__Host-${name}` : name, value, {
      httpOnly: true,
      sameSite: 'lax',
      secure,
      path: '/',
      maxAge: Math.floor(maxAgeMs / 1000),
    }),
  );
}
