import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Registry } from 'prom-client';
import { OperationalEndpoint } from '../http/operational';

@OperationalEndpoint()
@Controller()
export class MetricsController {
  constructor(private readonly registry: Registry) {}

  @Get('metrics')
  async metrics(@Res() res: Response) {
    res.type(this.registry.contentType).send(await this.registry.metrics());
  }
}
