import { AuditQuerySchema, type AuditQuery, AuditPageSchema } from '@artemis-studio/contracts';
import { Controller, Get, Query } from '@nestjs/common';
import { Access } from '../access/permission';
import { Valid } from '../http/validation.pipe';
import { AuditRepository } from './audit.repository';
import { Describe } from '../openapi/operation';

/** The audit trail, newest first, for administrators. */
@Controller('api/v1/audit')
export class AuditController {
  constructor(private readonly rows: AuditRepository) {}

  @Get()
  @Describe({
    summary: 'The audit trail, newest first',
    tag: 'access',
    query: AuditQuerySchema,
    status: 200,
    response: AuditPageSchema,
  })
  @Access.administrator()
  page(@Query(new Valid(AuditQuerySchema, 'audit query')) query: AuditQuery) {
    return this.rows.page(query);
  }
}
