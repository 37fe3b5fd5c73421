import { z } from 'zod';
import { CreateGrantRequestSchema, type CreateGrantRequest, GrantSchema } from '@artemis-studio/contracts';
import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { AuditRecord, Audited, type AuditNote } from '../audit/audit-note';
import { Valid, Id } from '../http/validation.pipe';
import { GrantRepository } from '../access/grant.repository';
import { Access } from '../access/permission';

import { DirectoryService } from './directory.service';
import { Describe } from '../openapi/operation';

/** Who holds which role where: users by id, identity-provider groups by name. */
@Controller('api/v1/grants')
export class GrantsController {
  constructor(
    private readonly grants: GrantRepository,
    private readonly directory: DirectoryService,
  ) {}

  @Get()
  @Describe({
    summary: 'Who holds which role where',
    tag: 'access',
    status: 200,
    response: z.array(GrantSchema),
  })
  @Access.administrator()
  list() {
    return this.grants.list();
  }

  @Post()
  @Describe({
    summary: 'Grant a role to a user or group',
    tag: 'access',
    body: CreateGrantRequestSchema,
    status: 201,
    response: GrantSchema,
  })
  @Access.administrator()
  @Audited('grant.create')
  create(
    @Body(new Valid(CreateGrantRequestSchema, 'grant')) request: CreateGrantRequest,
    @AuditRecord() note: AuditNote,
  ) {
    return this.directory.addGrant(request, note);
  }

  @Delete(':grantId')
  @Describe({ summary: 'Revoke a grant', tag: 'access', status: 204 })
  @HttpCode(204)
  @Access.administrator()
  @Audited('grant.delete')
  async remove(@Param('grantId', Id) grantId: string, @AuditRecord() note: AuditNote): Promise<void> {
    note.describe({ target: grantId });
    await this.directory.removeGrant(grantId, note);
  }
}
