import { SETTINGS, SettingKey, isSettingKey, type Setting } from '@artemis-studio/contracts';
import { StudioSettingEntity } from '@artemis-studio/db';
import type { DataSource, EntityManager } from 'typeorm';

export class InvalidSettingError extends Error {
  override name = 'InvalidSettingError';
}

/**
 * Reads and writes `studio_setting`; values are validated against the contract's bounds. Given a
 * transaction's manager, its writes commit (or roll back) with the rest of that transaction.
 */
export class SettingsRepository {
  constructor(private readonly dataSource: DataSource | EntityManager) {}

  /** The overrides in force; a stored value that no longer passes validation is ignored (default applies). */
  async overrides(): Promise<Map<SettingKey, number>> {
    const rows = await this.dataSource.getRepository(StudioSettingEntity).find();
    const result = new Map<SettingKey, number>();
    for (const row of rows) {
      if (!isSettingKey(row.key)) continue;
      const parsed = SETTINGS[row.key].schema.safeParse(row.value);
      if (parsed.success) result.set(row.key, parsed.data);
    }
    return result;
  }

  async put(key: string, value: unknown): Promise<Setting> {
    if (!isSettingKey(key)) throw new InvalidSettingError(`unknown setting '${key}'`);
    const parsed = SETTINGS[key].schema.safeParse(value);
    if (!parsed.success)
      throw new InvalidSettingError(`${key}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    await this.dataSource
      .createQueryBuilder()
      .insert()
      .into(StudioSettingEntity)
      .values({ key, value: parsed.data, updatedAt: new Date() })
      .orUpdate(['value', 'updated_at'], ['key'])
      .execute();
    return { key, value: parsed.data, default: SETTINGS[key].default, source: 'override' };
  }

  async reset(key: SettingKey): Promise<void> {
    await this.dataSource.getRepository(StudioSettingEntity).delete({ key });
  }
}

/** The effective value of every setting given the overrides in force. */
export function effectiveSettings(overrides: Map<SettingKey, number>): Setting[] {
  return (Object.keys(SETTINGS) as SettingKey[]).map((key) => {
    const override = overrides.get(key);
    return {
      key,
      value: override ?? SETTINGS[key].default,
      default: SETTINGS[key].default,
      source: override === undefined ? 'default' : 'override',
    };
  });
}
