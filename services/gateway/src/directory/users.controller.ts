import { z } from 'zod';
import {
  CreateUserRequestSchema,
  UpdateUserRequestSchema,
  type CreateUserRequest,
  type UpdateUserRequest,
  UserSchema,
} from '@artemis-studio/contracts';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { AuditRecord, Audited, type AuditNote } from '../audit/audit-note';
import { Valid, Id } from '../http/validation.pipe';
import { Access } from '../access/permission';
import { UserRepository } from '../access/user.repository';

import { DirectoryService } from './directory.service';
import { Describe } from '../openapi/operation';

/** Local users and service accounts, for administrators. */
@Controller('api/v1/users')
export class UsersController {
  constructor(
    private readonly users: UserRepository,
    private readonly directory: DirectoryService,
  ) {}

  @Get()
  @Describe({
    summary: 'Users and service accounts',
    tag: 'access',
    status: 200,
    response: z.array(UserSchema),
  })
  @Access.administrator()
  list() {
    return this.users.list();
  }

  @Post()
  @Describe({
    summary: 'Add a user or a service account',
    tag: 'access',
    body: CreateUserRequestSchema,
    status: 201,
    response: UserSchema,
  })
  @Access.administrator()
  @Audited('user.create')
  create(
    @Body(new Valid(CreateUserRequestSchema, 'user')) request: CreateUserRequest,
    @AuditRecord() note: AuditNote,
  ) {
    return this.directory.addUser(request, note);
  }

  @Patch(':userId')
  @Describe({
    summary: 'Disable or enable a user, or set their password',
    tag: 'access',
    body: UpdateUserRequestSchema,
    status: 200,
    response: UserSchema,
  })
  @Access.administrator()
  @Audited('user.update')
  update(
    @Param('userId', Id) userId: string,
    @Body(new Valid(UpdateUserRequestSchema, 'user change')) change: UpdateUserRequest,
    @AuditRecord() note: AuditNote,
  ) {
    note.describe({ target: userId });
    return this.directory.changeUser(userId, change, note);
  }

  @Delete(':userId')
  @Describe({ summary: 'Remove a user', tag: 'access', status: 204 })
  @HttpCode(204)
  @Access.administrator()
  @Audited('user.delete')
  async remove(@Param('userId', Id) userId: string, @AuditRecord() note: AuditNote): Promise<void> {
    note.describe({ target: userId });
    await this.directory.removeUser(userId, note);
  }
}
