import type { Setting, SettingKey } from '@artemis-studio/contracts';
import {
  DatabaseService,
  InvalidSettingError,
  SettingsRepository,
  SettingsService,
  effectiveSettings,
} from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';
import type { AuditNote } from '../audit/audit-note';
import { DomainError } from '../domain-error';

/** The runtime settings as in force, and an administrator's override with its audit row. */
@Injectable()
export class SettingOverridesService {
  constructor(
    private readonly database: DatabaseService,
    private readonly settings: SettingsService,
  ) {}

  async list(): Promise<Setting[]> {
    return effectiveSettings(await new SettingsRepository(await this.database.forRequest()).overrides());
  }

  /** Written with its audit row (the value before and after) in one transaction, then in force here. */
  async override(key: SettingKey, value: unknown, note: AuditNote): Promise<Setting> {
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
}
