import { AuditQuerySchema, type AuditQuery } from '@artemis-studio/contracts';
import { Controller, Get, Query } from '@nestjs/common';
import { Access } from '../access/permission';
import { Valid } from '../http/validation.pipe';
import { AuditRepository } from './audit.repository';

/** The audit trail, newest first, for administrators. */
@Controller('api/v1/audit')
export class AuditController {
  constructor(private readonly rows: AuditRepository) {}

  @Get()
  @Access.administrator()
  page(@Query(new Valid(AuditQuerySchema, 'audit query')) query: AuditQuery) {
    return this.rows.page(query);
  }
}
