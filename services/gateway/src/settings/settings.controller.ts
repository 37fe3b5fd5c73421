import {
  PutSettingRequestSchema,
  isSettingKey,
  type PutSettingRequest,
  type SettingKey,
} from '@artemis-studio/contracts';
import {
  DatabaseService,
  InvalidSettingError,
  SettingsService,
  SettingsRepository,
  effectiveSettings,
} from '@artemis-studio/platform';
import { Body, Controller, Get, Param, PipeTransform, Put } from '@nestjs/common';
import { Access } from '../access/permission';
import { AuditRecord, Audited, type AuditNote } from '../audit/audit-note';
import { DomainError } from '../domain-error';
import { Valid } from '../http/validation.pipe';

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
  constructor(
    private readonly database: DatabaseService,
    private readonly settings: SettingsService,
  ) {}

  @Get()
  @Access.signedIn()
  async list() {
    return effectiveSettings(await (await this.store()).overrides());
  }

  @Get(':key')
  @Access.signedIn()
  async get(@Param('key', KnownSetting) key: SettingKey) {
    return (await this.list()).find((s) => s.key === key);
  }

  @Put(':key')
  @Access.administrator()
  @Audited('setting.update')
  async put(
    @Param('key', KnownSetting) key: SettingKey,
    @Body(new Valid(PutSettingRequestSchema, 'setting')) { value }: PutSettingRequest,
    @AuditRecord() note: AuditNote,
  ) {
    note.describe({ target: key });
    try {
      const setting = await this.database.transaction(async (tx) => {
        const before = (await this.list()).find((s) => s.key === key)?.value;
        const written = await new SettingsRepository(tx).put(key, value);
        await note.within(tx, { detail: { from: before, to: written.value } });
        return written;
      });
      await this.settings.refresh();
      return setting;
    } catch (err) {
      if (err instanceof InvalidSettingError)
        throw new DomainError('invalid', 'VALIDATION_FAILED', err.message);
      throw err;
    }
  }

  private async store(): Promise<SettingsRepository> {
    return new SettingsRepository(await this.database.forRequest());
  }
}
