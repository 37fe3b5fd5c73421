import { startService, waitFor, type RunningService } from '@artemis-studio/testing';
import { Module } from '@nestjs/common';
import type { ReadinessReport } from './health/readiness';
import { PlatformModule } from './platform.module';

@Module({ imports: [PlatformModule.forService({ service: 'probe', defaultPort: 0 })] })
class ProbeModule {}

/** A port nothing listens on. */
const DEAD = '127.0.0.1:9';

describe('readiness follows the real dependencies', () => {
  let service: RunningService | undefined;
  afterEach(async () => {
    await service?.close();
    service = undefined;
  });

  const readiness = async () => {
    const response = await fetch(`${service!.url}/readyz`);
    return { status: response.status, body: (await response.json()) as ReadinessReport };
  };

  it('is live but not ready while NATS is unreachable, and says which dependency', async () => {
    service = await startService(ProbeModule, { NATS_URL: `nats://${DEAD}` });
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
    const report = await waitFor('the database to connect', async () => {
      const r = await readiness();
      return r.body.checks.database.ok && r;
    });
    expect(report.status).toBe(503);
    expect(report.body.checks.bus).toEqual({ ok: false, detail: 'connecting' });
  });

  it('is live but not ready while PostgreSQL is unreachable', async () => {
    service = await startService(ProbeModule, { DATABASE_URL: `postgres://postgres@${DEAD}/x` });
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
    const report = await waitFor('the bus to connect', async () => {
      const r = await readiness();
      return r.body.checks.bus.ok && r;
    });
    expect(report.status).toBe(503);
    expect(report.body.checks.database.ok).toBe(false);
    expect(report.body.checks.database.detail).toMatch(/ECONNREFUSED|connect/);
  });
});
