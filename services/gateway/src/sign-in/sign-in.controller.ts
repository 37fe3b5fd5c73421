import { z } from 'zod';
import {
  AuthConfigSchema,
  ChangePasswordRequestSchema,
  SignInRequestSchema,
  type AuthConfig,
  type ChangePasswordRequest,
  type SignInRequest,
  MeSchema,
} from '@artemis-studio/contracts';
import { withTimeout } from '@artemis-studio/timing';
import { Body, Controller, Get, HttpCode, Inject, Post, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { AuditRecord, Audited, draftFor, type AuditNote } from '../audit/audit-note';
import { AuditTrail } from '../audit/audit-trail';
import { DomainError } from '../domain-error';
import { GATEWAY_CONFIG, type AccessConfig, type GatewayConfig } from '../gateway.config';
import { Valid } from '../http/validation.pipe';
import { FirstAdmin } from '../access/first-admin';
import { GrantRepository } from '../access/grant.repository';
import { Access } from '../access/permission';
import { describePrincipal, principalOf, type Principal } from '../access/principal';
import { CurrentPrincipal, clientAddress, type StudioRequest } from '../access/request-context';
import { DECOY_HASH, digest, newSessionId, verifyPassword } from '../access/secrets';
import { SessionRepository } from '../access/session.repository';
import { SESSION_COOKIE, readCookie, setCookie } from '../access/session-cookie';
import { UserRepository, type UserRow } from '../access/user.repository';
import { DirectoryService } from '../directory/directory.service';
import { OidcClient } from './oidc-client';
import { SignInLimiter } from './sign-in-limiter';
import { Describe } from '../openapi/operation';

const FLOW_COOKIE = 'studio_oidc';

/** A path of this console to come back to after signing in; anything else (another site) is home. */
const localPath = (value: unknown): string =>
  typeof value === 'string' && /^\/(?![/\\])/.test(value) && value.length < 2000 ? value : '/';

/** Signing in (a local password or the identity provider), out, and who one is. */
@Controller('api/v1/auth')
export class SignInController {
  private readonly access: AccessConfig;

  constructor(
    private readonly users: UserRepository,
    private readonly grants: GrantRepository,
    private readonly sessions: SessionRepository,
    private readonly limiter: SignInLimiter,
    private readonly firstAdmin: FirstAdmin,
    private readonly oidc: OidcClient,
    private readonly trail: AuditTrail,
    private readonly directory: DirectoryService,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.access = config.access;
  }

  @Get('config')
  @Describe({
    summary: 'The ways to sign in',
    tag: 'access',
    status: 200,
    response: AuthConfigSchema,
  })
  @Access.public()
  config(): AuthConfig {
    return AuthConfigSchema.parse({
      mode: this.access.mode,
      local: true,
      oidc: this.oidc.enabled ? { name: this.oidc.enabled.name } : null,
    });
  }

  @Post('sign-in')
  @Describe({
    summary: 'Sign in with a Studio account (sets the session cookie)',
    tag: 'access',
    body: SignInRequestSchema,
    status: 200,
    response: MeSchema,
  })
  @HttpCode(200)
  @Access.public()
  @Audited('auth.sign-in')
  async signIn(
    @Body(new Valid(SignInRequestSchema, 'sign-in')) { username, password }: SignInRequest,
    @Req() req: StudioRequest,
    @Res({ passthrough: true }) res: Response,
    @AuditRecord() note: AuditNote,
  ) {
    note.describe({ target: username, actor: { kind: 'local', id: null, name: username } });
    await this.limiter.check(username, clientAddress(req));
    await withTimeout(this.firstAdmin.settled, 5000, () => undefined);
    const user = await this.users.byName(username);
    const checked = user?.kind === 'local' && user.passwordHash ? user.passwordHash : await DECOY_HASH;
    const matches = await verifyPassword(password, checked);
    if (!user || user.kind !== 'local' || !matches || user.disabled)
      throw new DomainError('unauthenticated', 'INVALID_CREDENTIALS', 'wrong username or password');
    note.describe({ actor: { kind: 'local', id: user.id, name: user.username } });
    return this.startSession(user, req, res);
  }

  @Post('sign-out')
  @Describe({ summary: 'End this session, on every replica', tag: 'access', status: 204 })
  @HttpCode(204)
  @Access.signedIn()
  @Audited('auth.sign-out')
  async signOut(@Req() req: StudioRequest, @Res({ passthrough: true }) res: Response): Promise<void> {
    const sessionId = readCookie(req, SESSION_COOKIE);
    // Revoked in PostgreSQL: every replica refuses it from the next request, and its streams end.
    if (sessionId && req.principal?.via === 'session') await this.sessions.revoke(digest(sessionId));
    setCookie(req, res, SESSION_COOKIE, '', 0);
  }

  /** A local user's own password; every session of theirs ends with it, this one too. */
  @Post('password')
  @Describe({
    summary: 'Change your own password (ends your sessions)',
    tag: 'access',
    body: ChangePasswordRequestSchema,
    status: 204,
  })
  @HttpCode(204)
  @Access.signedIn()
  @Audited('auth.password')
  async changePassword(
    @Body(new Valid(ChangePasswordRequestSchema, 'password change')) change: ChangePasswordRequest,
    @CurrentPrincipal() principal: Principal,
    @Req() req: StudioRequest,
    @Res({ passthrough: true }) res: Response,
    @AuditRecord() note: AuditNote,
  ): Promise<void> {
    note.describe({ target: principal.name });
    await this.limiter.check(principal.name, clientAddress(req));
    const user = await this.users.byId(principal.id).catch(() => null);
    if (user?.kind !== 'local' || !user.passwordHash)
      throw new DomainError('invalid', 'NOT_A_LOCAL_USER', 'only a Studio account has a password here');
    if (!(await verifyPassword(change.currentPassword, user.passwordHash)))
      throw new DomainError('forbidden', 'WRONG_PASSWORD', 'the current password is not right');
    await this.directory.setPassword(user.id, change.newPassword, note);
    setCookie(req, res, SESSION_COOKIE, '', 0);
  }

  @Get('me')
  @Describe({
    summary: 'Who is signed in, and their grants',
    tag: 'access',
    status: 200,
    response: MeSchema,
  })
  @Access.signedIn()
  me(@CurrentPrincipal() principal: Principal) {
    return describePrincipal(principal);
  }

  @Get('oidc/start')
  @Describe({
    summary: 'Start signing in with the identity provider',
    tag: 'access',
    query: z.object({ returnTo: z.string().optional() }),
    status: 302,
    produces: 'redirect',
  })
  @Access.public()
  async oidcStart(@Query('returnTo') returnTo: unknown, @Req() req: StudioRequest, @Res() res: Response) {
    const { url, flow } = await this.oidc.start(localPath(returnTo));
    setCookie(req, res, FLOW_COOKIE, flow, 10 * 60_000);
    res.redirect(302, url);
  }

  /** The provider sends the browser back here; the outcome is audited like a password sign-in. */
  @Get('oidc/callback')
  @Describe({
    summary: "The identity provider's return (authorization code)",
    tag: 'access',
    query: z.object({ code: z.string().optional(), state: z.string().optional() }),
    status: 302,
    produces: 'redirect',
  })
  @Access.public()
  async oidcCallback(@Req() req: StudioRequest, @Res() res: Response) {
    const draft = draftFor(req, 'auth.sign-in', 200);
    setCookie(req, res, FLOW_COOKIE, '', 0);
    try {
      const { identity, returnTo } = await this.oidc.finish(
        new URL(req.originalUrl, 'http://callback.invalid'),
        readCookie(req, FLOW_COOKIE),
      );
      draft.target = identity.username;
      draft.actor = { kind: 'oidc', id: null, name: identity.username };
      const user = await this.users.upsertOidc(identity.username, identity.groups);
      if (user.kind !== 'oidc' || user.disabled)
        throw new DomainError(
          'forbidden',
          'SIGN_IN_REFUSED',
          `'${identity.username}' may not sign in here with the identity provider`,
        );
      draft.actor.id = user.id;
      await this.startSession(user, req, res);
      await this.trail.record({ ...draft, detail: { via: 'oidc', groups: identity.groups } });
      res.redirect(302, returnTo);
    } catch (err) {
      const code = err instanceof DomainError ? err.code : 'SIGN_IN_FAILED';
      const status = err instanceof DomainError && err.kind === 'forbidden' ? 403 : 401;
      await this.trail.record({ ...draft, outcome: 'denied', status, code, detail: { via: 'oidc' } });
      res.redirect(302, `/sign-in?error=${encodeURIComponent(code)}`);
    }
  }

  private async startSession(user: UserRow, req: StudioRequest, res: Response) {
    const sessionId = newSessionId();
    await this.sessions.create(digest(sessionId), user.id, this.access.sessionMaxMs, clientAddress(req));
    await this.users.markSignedIn(user.id);
    setCookie(req, res, SESSION_COOKIE, sessionId, this.access.sessionMaxMs);
    return describePrincipal(principalOf(user, 'session', await this.grants.of(user), null));
  }
}
