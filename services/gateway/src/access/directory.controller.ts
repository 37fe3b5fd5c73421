import {
  CreateGrantRequestSchema,
  CreateTokenRequestSchema,
  CreateUserRequestSchema,
  UpdateUserRequestSchema,
  type CreateGrantRequest,
  type CreatedToken,
  type CreateTokenRequest,
  type CreateUserRequest,
  type UpdateUserRequest,
} from '@artemis-studio/contracts';
import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post } from '@nestjs/common';
import { AuditRecord, Audited, type AuditNote } from '../audit/audit-note';
import { DomainError } from '../domain-error';
import { Valid } from '../http/validation.pipe';
import { AccessStore } from './access-store';
import { isAdministrator } from '@artemis-studio/contracts';
import { Access } from './permission';
import { CurrentPrincipal } from './request-context';
import type { Principal } from './principal';
import { digest, hashPassword, newTokenSecret } from './secrets';

const Id = new ParseUUIDPipe({
  exceptionFactory: () => new DomainError('invalid', 'INVALID_ID', 'not an id (a UUID)'),
});

/** Local users and service accounts, for administrators. */
@Controller('api/v1/users')
export class UsersController {
  constructor(private readonly store: AccessStore) {}

  @Get()
  @Access.administrator()
  list() {
    return this.store.listUsers();
  }

  @Post()
  @Access.administrator()
  @Audited('user.create')
  async create(
    @Body(new Valid(CreateUserRequestSchema, 'user')) request: CreateUserRequest,
    @AuditRecord() note: AuditNote,
  ) {
    const passwordHash = request.kind === 'local' ? await hashPassword(request.password) : null;
    const db = await this.store.db();
    const user = await db.transaction(async (tx) => {
      const created = await this.store.createUser(tx, {
        username: request.username,
        kind: request.kind,
        passwordHash,
      });
      if (request.role)
        await this.store.createGrant(tx, {
          subjectKind: 'user',
          subject: created.id,
          role: request.role,
          clusters: request.clusters,
        });
      await note.within(tx, {
        target: created.username,
        detail: { kind: request.kind, role: request.role ?? null, clusters: request.clusters },
      });
      return created;
    });
    return (await this.store.listUsers()).find((u) => u.id === user.id);
  }

  @Patch(':userId')
  @Access.administrator()
  @Audited('user.update')
  async update(
    @Param('userId', Id) userId: string,
    @Body(new Valid(UpdateUserRequestSchema, 'user change')) change: UpdateUserRequest,
    @AuditRecord() note: AuditNote,
  ) {
    note.describe({ target: userId });
    if (change.disabled && (await this.store.administratorsBesides(null, userId)) === 0)
      throw lastAdministrator();
    const passwordHash = change.password ? await hashPassword(change.password) : undefined;
    await (
      await this.store.db()
    ).transaction(async (tx) => {
      await this.store.updateUser(tx, userId, { disabled: change.disabled, passwordHash });
      // Which fields changed, never their values: a password is a secret.
      await note.within(tx, { detail: { changed: Object.keys(change) } });
    });
    return (await this.store.listUsers()).find((u) => u.id === userId);
  }

  @Delete(':userId')
  @HttpCode(204)
  @Access.administrator()
  @Audited('user.delete')
  async remove(@Param('userId', Id) userId: string, @AuditRecord() note: AuditNote): Promise<void> {
    note.describe({ target: userId });
    if ((await this.store.administratorsBesides(null, userId)) === 0) throw lastAdministrator();
    await (
      await this.store.db()
    ).transaction(async (tx) => {
      await this.store.deleteUser(tx, userId);
      await note.within(tx);
    });
  }
}

/** Who holds which role where: users by id, identity-provider groups by name. */
@Controller('api/v1/grants')
export class GrantsController {
  constructor(private readonly store: AccessStore) {}

  @Get()
  @Access.administrator()
  list() {
    return this.store.listGrants();
  }

  @Post()
  @Access.administrator()
  @Audited('grant.create')
  async create(
    @Body(new Valid(CreateGrantRequestSchema, 'grant')) request: CreateGrantRequest,
    @AuditRecord() note: AuditNote,
  ) {
    if (request.subjectKind === 'user' && !(await this.store.userById(request.subject).catch(() => null)))
      throw new DomainError('invalid', 'USER_NOT_FOUND', `no user ${request.subject}`);
    return (await this.store.db()).transaction(async (tx) => {
      const grant = await this.store.createGrant(tx, request);
      await note.within(tx, {
        target: `${grant.subjectKind}:${grant.subject}`,
        detail: { role: grant.role, clusters: grant.clusters },
      });
      return grant;
    });
  }

  @Delete(':grantId')
  @HttpCode(204)
  @Access.administrator()
  @Audited('grant.delete')
  async remove(@Param('grantId', Id) grantId: string, @AuditRecord() note: AuditNote): Promise<void> {
    note.describe({ target: grantId });
    const grant = (await this.store.listGrants()).find((g) => g.id === grantId);
    if (
      grant?.role === 'admin' &&
      grant.clusters === '*' &&
      (await this.store.administratorsBesides(grantId, null)) === 0
    )
      throw lastAdministrator();
    await (
      await this.store.db()
    ).transaction(async (tx) => {
      const deleted = await this.store.deleteGrant(tx, grantId);
      await note.within(tx, {
        target: `${deleted.subjectKind}:${deleted.subject}`,
        detail: { role: deleted.role, clusters: deleted.clusters },
      });
    });
  }
}

/**
 * API tokens for other tools and CI. Anyone signed in keeps their own; an administrator also
 * makes them for service accounts. The secret is shown once, in the answer to its creation.
 */
@Controller('api/v1/tokens')
export class TokensController {
  constructor(private readonly store: AccessStore) {}

  @Get()
  @Access.signedIn()
  list(@CurrentPrincipal() principal: Principal) {
    return this.store.listTokens(isAdministrator(principal.grants) ? null : principal.id);
  }

  @Post()
  @Access.signedIn()
  @Audited('token.create')
  async create(
    @Body(new Valid(CreateTokenRequestSchema, 'token')) request: CreateTokenRequest,
    @CurrentPrincipal() principal: Principal,
    @AuditRecord() note: AuditNote,
  ): Promise<CreatedToken> {
    if (principal.kind === 'anonymous')
      throw new DomainError('invalid', 'NO_USER', 'with AUTH_MODE=none there is nobody to own a token');
    const ownerId = request.ownerId ?? principal.id;
    if (ownerId !== principal.id) {
      if (!isAdministrator(principal.grants))
        throw new DomainError(
          'forbidden',
          'FORBIDDEN',
          'only an administrator makes tokens for another account',
        );
      const owner = await this.store.userById(ownerId);
      if (owner?.kind !== 'service')
        throw new DomainError(
          'invalid',
          'NOT_A_SERVICE_ACCOUNT',
          'tokens are made for yourself or for a service account',
        );
    }
    const secret = newTokenSecret();
    return (await this.store.db()).transaction(async (tx) => {
      const id = await this.store.createToken(tx, {
        digest: digest(secret),
        name: request.name,
        ownerId,
        role: request.role,
        clusters: request.clusters,
        expiresInDays: request.expiresInDays,
      });
      const token = await this.store.token(id, tx);
      await note.within(tx, {
        target: `${token.ownerName}/${token.name}`,
        detail: { tokenId: id, role: token.role, clusters: token.clusters, expiresAt: token.expiresAt },
      });
      return { token, secret };
    });
  }

  /** Ends the token everywhere; streams opened with it close within seconds. */
  @Delete(':tokenId')
  @HttpCode(204)
  @Access.signedIn()
  @Audited('token.revoke')
  async revoke(
    @Param('tokenId', Id) tokenId: string,
    @CurrentPrincipal() principal: Principal,
    @AuditRecord() note: AuditNote,
  ): Promise<void> {
    note.describe({ target: tokenId });
    const token = await this.store.token(tokenId);
    if (token.ownerId !== principal.id && !isAdministrator(principal.grants))
      throw new DomainError('not-found', 'TOKEN_NOT_FOUND', `no token ${tokenId}`);
    await (
      await this.store.db()
    ).transaction(async (tx) => {
      await this.store.revokeToken(tx, tokenId);
      await note.within(tx, { target: `${token.ownerName}/${token.name}`, detail: { tokenId } });
    });
  }
}

const lastAdministrator = () =>
  new DomainError(
    'conflict',
    'LAST_ADMINISTRATOR',
    'this would leave no administrator: grant admin on * to someone else first',
  );
