import type {
  CreatedToken,
  CreateGrantRequest,
  CreateTokenRequest,
  CreateUserRequest,
  Grant,
  UpdateUserRequest,
  User,
} from '@artemis-studio/contracts';
import { DatabaseService } from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';
import { GrantRepository } from '../access/grant.repository';
import { digest, hashPassword, newTokenSecret } from '../access/secrets';
import { TokenRepository } from '../access/token.repository';
import { UserRepository } from '../access/user.repository';
import type { AuditNote } from '../audit/audit-note';
import { DomainError } from '../domain-error';

const lastAdministrator = () =>
  new DomainError(
    'conflict',
    'LAST_ADMINISTRATOR',
    'this would leave no administrator: grant admin on * to someone else first',
  );

/**
 * What is changed in the directory (users, grants, API tokens): each change and its audit row in
 * one transaction, with the rules that keep an administrator in place.
 */
@Injectable()
export class DirectoryService {
  constructor(
    private readonly database: DatabaseService,
    private readonly users: UserRepository,
    private readonly grants: GrantRepository,
    private readonly tokens: TokenRepository,
  ) {}

  async addUser(request: CreateUserRequest, note: AuditNote): Promise<User> {
    const passwordHash = request.kind === 'local' ? await hashPassword(request.password) : null;
    const user = await this.database.transaction(async (tx) => {
      const created = await this.users.create(tx, {
        username: request.username,
        kind: request.kind,
        passwordHash,
      });
      if (request.role)
        await this.grants.create(tx, {
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
    return this.users.one(user.id);
  }

  async changeUser(userId: string, change: UpdateUserRequest, note: AuditNote): Promise<User> {
    if (change.disabled && (await this.grants.administratorsBesides(null, userId)) === 0)
      throw lastAdministrator();
    const passwordHash = change.password ? await hashPassword(change.password) : undefined;
    await this.database.transaction(async (tx) => {
      await this.users.update(tx, userId, { disabled: change.disabled, passwordHash });
      // Which fields changed, never their values: a password is a secret.
      await note.within(tx, { detail: { changed: Object.keys(change) } });
    });
    return this.users.one(userId);
  }

  async removeUser(userId: string, note: AuditNote): Promise<void> {
    if ((await this.grants.administratorsBesides(null, userId)) === 0) throw lastAdministrator();
    await this.database.transaction(async (tx) => {
      await this.users.delete(tx, userId);
      await note.within(tx);
    });
  }

  /** One's own password, the current one checked by the caller; every session of theirs ends. */
  async setPassword(userId: string, newPassword: string, note: AuditNote): Promise<void> {
    const passwordHash = await hashPassword(newPassword);
    await this.database.transaction(async (tx) => {
      await this.users.update(tx, userId, { passwordHash });
      await note.within(tx);
    });
  }

  async addGrant(request: CreateGrantRequest, note: AuditNote): Promise<Grant> {
    if (request.subjectKind === 'user' && !(await this.users.byId(request.subject).catch(() => null)))
      throw new DomainError('invalid', 'USER_NOT_FOUND', `no user ${request.subject}`);
    return this.database.transaction(async (tx) => {
      const grant = await this.grants.create(tx, request);
      await note.within(tx, {
        target: `${grant.subjectKind}:${grant.subject}`,
        detail: { role: grant.role, clusters: grant.clusters },
      });
      return grant;
    });
  }

  async removeGrant(grantId: string, note: AuditNote): Promise<void> {
    const grant = (await this.grants.list()).find((g) => g.id === grantId);
    if (
      grant?.role === 'admin' &&
      grant.clusters === '*' &&
      (await this.grants.administratorsBesides(grantId, null)) === 0
    )
      throw lastAdministrator();
    await this.database.transaction(async (tx) => {
      const deleted = await this.grants.delete(tx, grantId);
      await note.within(tx, {
        target: `${deleted.subjectKind}:${deleted.subject}`,
        detail: { role: deleted.role, clusters: deleted.clusters },
      });
    });
  }

  /** A token for `ownerId`, its secret in this answer only. */
  async addToken(ownerId: string, request: CreateTokenRequest, note: AuditNote): Promise<CreatedToken> {
    const secret = newTokenSecret();
    return this.database.transaction(async (tx) => {
      const id = await this.tokens.create(tx, {
        digest: digest(secret),
        name: request.name,
        ownerId,
        role: request.role,
        clusters: request.clusters,
        expiresInDays: request.expiresInDays,
      });
      const token = await this.tokens.one(id, tx);
      await note.within(tx, {
        target: `${token.ownerName}/${token.name}`,
        detail: { tokenId: id, role: token.role, clusters: token.clusters, expiresAt: token.expiresAt },
      });
      return { token, secret };
    });
  }

  async revokeToken(token: { id: string; ownerName: string; name: string }, note: AuditNote): Promise<void> {
    await this.database.transaction(async (tx) => {
      await this.tokens.revoke(tx, token.id);
      await note.within(tx, { target: `${token.ownerName}/${token.name}`, detail: { tokenId: token.id } });
    });
  }
}
