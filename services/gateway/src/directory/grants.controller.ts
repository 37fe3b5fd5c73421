import { CreateGrantRequestSchema, type CreateGrantRequest } from '@artemis-studio/contracts';
import { DatabaseService } from '@artemis-studio/platform';
import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { AuditRecord, Audited, type AuditNote } from '../audit/audit-note';
import { DomainError } from '../domain-error';
import { Valid } from '../http/validation.pipe';
import { GrantRepository } from '../access/grant.repository';
import { Access } from '../access/permission';
import { UserRepository } from '../access/user.repository';
import { Id, lastAdministrator } from './directory-params';

/** Who holds which role where: users by id, identity-provider groups by name. */
@Controller('api/v1/grants')
export class GrantsController {
  constructor(
    private readonly database: DatabaseService,
    private readonly users: UserRepository,
    private readonly grants: GrantRepository,
  ) {}

  @Get()
  @Access.administrator()
  list() {
    return this.grants.list();
  }

  @Post()
  @Access.administrator()
  @Audited('grant.create')
  async create(
    @Body(new Valid(CreateGrantRequestSchema, 'grant')) request: CreateGrantRequest,
    @AuditRecord() note: AuditNote,
  ) {
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

  @Delete(':grantId')
  @HttpCode(204)
  @Access.administrator()
  @Audited('grant.delete')
  async remove(@Param('grantId', Id) grantId: string, @AuditRecord() note: AuditNote): Promise<void> {
    note.describe({ target: grantId });
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
}
