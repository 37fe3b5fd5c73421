import { SETTINGS, type SettingKey } from '@artemis-studio/contracts';
import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { DatabaseService } from '../database/database.service';
import { SettingsRepository } from './settings.repository';

/** How often every service re-reads `studio_setting`: a change takes effect within this, without a restart. */
const SETTINGS_REFRESH_MS = 2000;

/**
 * Runtime settings as this service sees them. Readers call `get` at each use, so a change
 * applies on the next tick of whatever reads it.
 */
@Injectable()
export class SettingsService implements OnModuleInit, OnApplicationShutdown {
  private overrides = new Map<SettingKey, number>();
  private timer?: NodeJS.Timeout;
  private readonly logger = new Logger('Settings');
  private store?: SettingsRepository;
  private stopped = false;

  constructor(private readonly database: DatabaseService) {}

  onModuleInit(): void {
    void this.database.whenReady().then(async (dataSource) => {
      this.store = new SettingsRepository(dataSource);
      await this.refresh();
      // Stopped while the first read was under way: a timer started now would outlive the service.
      if (this.stopped) return;
      this.timer = setInterval(() => void this.refresh(), SETTINGS_REFRESH_MS);
      this.timer.unref();
    });
  }

  get(key: SettingKey): number {
    return this.overrides.get(key) ?? SETTINGS[key].default;
  }

  /** Re-reads the overrides now (a test or a writer that wants its change visible at once). */
  async refresh(): Promise<void> {
    if (!this.store) return;
    try {
      this.overrides = await this.store.overrides();
    } catch (err) {
      // Keep the last known values: a database blip must not reset every setting to its default.
      this.logger.warn(`could not refresh settings: ${(err as Error).message}`);
    }
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }
}
