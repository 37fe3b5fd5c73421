import { Module } from '@nestjs/common';
import { FigureExportPart } from './figure-export.part';

/** The owned clusters' figures on the scraper's `/metrics`. */
@Module({ providers: [FigureExportPart], exports: [FigureExportPart] })
export class ExportModule {}
