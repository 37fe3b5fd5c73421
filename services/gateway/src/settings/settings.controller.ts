import { withTimeout } from '@artemis-studio/timing';
import { PutSettingRequestSchema, isSettingKey } from '@artemis-studio/contracts';
import {
  DatabaseService,
  InvalidSettingError,
  SettingsService,
  SettingsStore,
  effectiveSettings,
} from '@artemis-studio/platform';
import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiError, parseInput } from '../http/api-error';

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
  async get(@Param('key') key: string) {
    if (!isSettingKey(key)) throw new ApiError(404, 'SETTING_NOT_FOUND', `no setting '${key}'`);
    return (await this.list()).find((s) => s.key === key);
  }

  @Put(':key')
  async put(@Param('key') key: string, @Body() body: unknown) {
    if (!isSettingKey(key)) throw new ApiError(404, 'SETTING_NOT_FOUND', `no setting '${key}'`);
    const { value } = parseInput(PutSettingRequestSchema, body, 'setting');
    try {
      const setting = await (await this.store()).put(key, value);
      await this.settings.refresh();
      return setting;
    } catch (err) {
      if (err instanceof InvalidSettingError) throw new ApiError(400, 'VALIDATION_FAILED', err.message);
      throw err;
    }
  }

  private async store(): Promise<SettingsStore> {
    const ready = await withTimeout(this.database.whenReady(), 50, () => null);
    if (!ready) throw new ApiError(503, 'DATABASE_UNAVAILABLE', 'PostgreSQL is not available');
    return new SettingsStore(ready);
  }
}
