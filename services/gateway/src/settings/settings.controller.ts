import { z } from 'zod';
import {
  PutSettingRequestSchema,
  isSettingKey,
  type PutSettingRequest,
  type SettingKey,
  SettingSchema,
} from '@artemis-studio/contracts';
import { Body, Controller, Get, Param, PipeTransform, Put } from '@nestjs/common';
import { Access } from '../access/permission';
import { AuditRecord, Audited, type AuditNote } from '../audit/audit-note';
import { DomainError } from '../domain-error';
import { Valid } from '../http/validation.pipe';
import { SettingOverridesService } from './setting-overrides.service';
import { Describe } from '../openapi/operation';

/** `@Param('key', KnownSetting)`: a setting the contracts define, or not found. */
const KnownSetting: PipeTransform<string, SettingKey> = {
  transform(key: string): SettingKey {
    if (!isSettingKey(key)) throw new DomainError('not-found', 'SETTING_NOT_FOUND', `no setting '${key}'`);
    return key;
  },
};

/** Runtime settings: every service re-reads them within seconds, without a restart. */
@Controller('api/v1/settings')
export class SettingsController {
  constructor(private readonly overrides: SettingOverridesService) {}

  @Get()
  @Describe({
    summary: 'Runtime settings',
    tag: 'settings',
    status: 200,
    response: z.array(SettingSchema),
  })
  @Access.signedIn()
  list() {
    return this.overrides.list();
  }

  @Get(':key')
  @Describe({
    summary: 'One runtime setting',
    tag: 'settings',
    status: 200,
    response: SettingSchema,
  })
  @Access.signedIn()
  async get(@Param('key', KnownSetting) key: SettingKey) {
    return (await this.overrides.list()).find((s) => s.key === key);
  }

  @Put(':key')
  @Describe({
    summary: 'Override a runtime setting',
    tag: 'settings',
    body: PutSettingRequestSchema,
    status: 200,
    response: SettingSchema,
  })
  @Access.administrator()
  @Audited('setting.update')
  put(
    @Param('key', KnownSetting) key: SettingKey,
    @Body(new Valid(PutSettingRequestSchema, 'setting')) { value }: PutSettingRequest,
    @AuditRecord() note: AuditNote,
  ) {
    note.describe({ target: key });
    return this.overrides.override(key, value, note);
  }
}
