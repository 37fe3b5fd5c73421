import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { OpenApiController } from './openapi.controller';

/** GET /api/v1/openapi.json: the HTTP API described from the routes and the contracts. */
@Module({ imports: [DiscoveryModule], controllers: [OpenApiController] })
export class OpenApiModule {}
