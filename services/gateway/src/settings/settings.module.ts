import { Module } from '@nestjs/common';
import { SettingOverridesService } from './setting-overrides.service';
import { SettingsController } from './settings.controller';

/** The runtime settings API (the settings themselves are the platform's). */
@Module({ controllers: [SettingsController], providers: [SettingOverridesService] })
export class SettingsModule {}
