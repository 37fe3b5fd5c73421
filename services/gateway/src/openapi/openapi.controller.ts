import { Controller, Get, type Type } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { Access } from '../access/permission';
import { routesOf } from '../http/route-catalog';
import { API_VERSION, openApiDocument } from './openapi-document';
import { Describe } from './operation';

/** The API's machine-readable description, for client generators and the console's API page. */
@Controller('api/v1/openapi.json')
export class OpenApiController {
  private document?: Record<string, unknown>;

  constructor(private readonly discovery: DiscoveryService) {}

  @Get()
  @Describe({ summary: 'This document', tag: 'api', status: 200 })
  @Access.signedIn()
  describe() {
    // The running app's own controllers: what is served is what is described.
    this.document ??= openApiDocument(
      routesOf(this.discovery.getControllers().flatMap((c) => (c.metatype ? [c.metatype as Type] : []))),
      API_VERSION,
    );
    return this.document;
  }
}
