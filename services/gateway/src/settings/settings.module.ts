import { Module } from '@nestjs/common';
import { SettingsController } from './settings.controller';

/** The runtime settings API (the settings themselves are the platform's). */
@Module({ controllers: [SettingsController] })
export class SettingsModule {}
