import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { GATEWAY_CONFIG, type AccessConfig, type GatewayConfig } from '../gateway.config';
import { GrantRepository } from './grant.repository';
import { capToToken } from './grants';
import { ANONYMOUS, principalOf, type Principal } from './principal';
import { digest, TOKEN_PREFIX } from './secrets';
import { SessionRepository } from './session.repository';
import { SESSION_COOKIE, readCookie } from './session-cookie';
import { TokenRepository } from './token.repository';

/** Last-seen and last-used times are written at most this often per credential. */
const TOUCH_EVERY_MS = 60_000;

/**
 * Who a request is: a session cookie or an `Authorization: Bearer sst_…` API token, each looked
 * up in PostgreSQL by digest on every request, so a sign-out, a revocation or a disabled user
 * takes effect on every replica at once. No credential, or one no longer good, is nobody.
 */
@Injectable()
export class Authenticator {
  private readonly access: AccessConfig;

  constructor(
    private readonly sessions: SessionRepository,
    private readonly tokens: TokenRepository,
    private readonly grants: GrantRepository,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.access = config.access;
  }

  async authenticate(req: Request): Promise<Principal | null> {
    if (this.access.mode === 'none') return ANONYMOUS;
    const authorization = req.header('authorization');
    if (authorization !== undefined) {
      const secret = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
      return secret?.startsWith(TOKEN_PREFIX) ? this.byToken(secret) : null;
    }
    const sessionId = readCookie(req, SESSION_COOKIE);
    return sessionId ? this.bySession(sessionId) : null;
  }

  private async bySession(sessionId: string): Promise<Principal | null> {
    const sessionDigest = digest(sessionId);
    const session = await this.sessions.byDigest(sessionDigest);
    const now = Date.now();
    if (
      !session ||
      session.revokedAt ||
      session.user.disabled ||
      session.expiresAt.getTime() <= now ||
      session.lastSeenAt.getTime() + this.access.sessionIdleMs <= now
    )
      return null;
    if (now - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) await this.sessions.touch([sessionDigest]);
    return principalOf(session.user, 'session', await this.grants.of(session.user), {
      kind: 'session',
      digest: sessionDigest,
    });
  }

  private async byToken(secret: string): Promise<Principal | null> {
    const token = await this.tokens.byDigest(digest(secret));
    const now = Date.now();
    if (
      !token ||
      token.revokedAt ||
      token.owner.disabled ||
      (token.expiresAt && token.expiresAt.getTime() <= now)
    )
      return null;
    if (!token.lastUsedAt || now - token.lastUsedAt.getTime() > TOUCH_EVERY_MS)
      await this.tokens.touch(token.id);
    const grants = capToToken(await this.grants.of(token.owner), {
      role: token.role,
      clusters: token.clusters,
    });
    return principalOf(token.owner, 'token', grants, { kind: 'token', id: token.id });
  }

  /**
   * Of the credentials streams hold open, those no longer good: revoked, expired, idle too long,
   * or whose user was disabled or removed. One query per kind for every stream of the replica.
   */
  async noLongerGood(
    sessions: Buffer[],
    tokens: string[],
  ): Promise<{ sessions: Set<string>; tokens: Set<string> }> {
    const [goodSessions, goodTokens] = await Promise.all([
      this.sessions.stillGood(sessions, this.access.sessionIdleMs),
      this.tokens.stillGood(tokens),
    ]);
    return {
      sessions: new Set(sessions.map((d) => d.toString('hex')).filter((d) => !goodSessions.has(d))),
      tokens: new Set(tokens.filter((t) => !goodTokens.has(t))),
    };
  }
}
