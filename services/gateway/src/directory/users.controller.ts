import {
  CreateUserRequestSchema,
  UpdateUserRequestSchema,
  type CreateUserRequest,
  type UpdateUserRequest,
} from '@artemis-studio/contracts';
import { DatabaseService } from '@artemis-studio/platform';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { AuditRecord, Audited, type AuditNote } from '../audit/audit-note';
import { Valid } from '../http/validation.pipe';
import { GrantRepository } from '../access/grant.repository';
import { Access } from '../access/permission';
import { hashPassword } from '../access/secrets';
import { UserRepository } from '../access/user.repository';
import { Id, lastAdministrator } from './directory-params';

/** Local users and service accounts, for administrators. */
@Controller('api/v1/users')
export class UsersController {
  constructor(
    private readonly database: DatabaseService,
    private readonly users: UserRepository,
    private readonly grants: GrantRepository,
  ) {}

  @Get()
  @Access.administrator()
  list() {
    return this.users.list();
  }

  @Post()
  @Access.administrator()
  @Audited('user.create')
  async create(
    @Body(new Valid(CreateUserRequestSchema, 'user')) request: CreateUserRequest,
    @AuditRecord() note: AuditNote,
  ) {
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

  @Patch(':userId')
  @Access.administrator()
  @Audited('user.update')
  async update(
    @Param('userId', Id) userId: string,
    @Body(new Valid(UpdateUserRequestSchema, 'user change')) change: UpdateUserRequest,
    @AuditRecord() note: AuditNote,
  ) {
    note.describe({ target: userId });
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

  @Delete(':userId')
  @HttpCode(204)
  @Access.administrator()
  @Audited('user.delete')
  async remove(@Param('userId', Id) userId: string, @AuditRecord() note: AuditNote): Promise<void> {
    note.describe({ target: userId });
    if ((await this.grants.administratorsBesides(null, userId)) === 0) throw lastAdministrator();
    await this.database.transaction(async (tx) => {
      await this.users.delete(tx, userId);
      await note.within(tx);
    });
  }
}
