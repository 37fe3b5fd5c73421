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
  SettingsStore,
  effectiveSettings,
} from '@artemis-studio/platform';
import { Body, Controller, Get, Param, PipeTransform, Put } from '@nestjs/common';
import { DomainError } from '../domain-error';
import { DATABASE_WAIT_MS } from '../gateway.config';
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
  async list() {
    return effectiveSettings(await (await this.store()).overrides());
  }

  @Get(':key')
  async get(@Param('key', KnownSetting) key: SettingKey) {
    return (await this.list()).find((s) => s.key === key);
  }

  @Put(':key')
  async put(
    @Param('key', KnownSetting) key: SettingKey,
    @Body(new Valid(PutSettingRequestSchema, 'setting')) { value }: PutSettingRequest,
  ) {
    try {
      const setting = await (await this.store()).put(key, value);
      await this.settings.refresh();
      return setting;
    } catch (err) {
      if (err instanceof InvalidSettingError)
        throw new DomainError('invalid', 'VALIDATION_FAILED', err.message);
      throw err;
    }
  }

  private async store(): Promise<SettingsStore> {
    return new SettingsStore(await this.database.readyWithin(DATABASE_WAIT_MS));
  }
}
