import { Controller, Get, HttpStatus, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import { READINESS_CHECKS, ReadinessCheck, assessReadiness } from './readiness';
import { OperationalEndpoint } from '../http/operational';

@OperationalEndpoint()
@Controller()
export class HealthController {
  constructor(@Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[]) {}

  /** Liveness: the process serves HTTP. Dependencies are readiness's business, not a reason to restart. */
  @Get('healthz')
  healthz() {
    return { status: 'ok' };
  }

  @Get('readyz')
  async readyz(@Res() res: Response) {
    const report = await assessReadiness(this.checks);
    res.status(report.ready ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE).json(report);
  }
}
