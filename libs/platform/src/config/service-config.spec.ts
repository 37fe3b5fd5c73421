import { ConfigError, loadServiceConfig } from './service-config';

describe('loadServiceConfig', () => {
  it('applies local defaults', () => {
    expect(loadServiceConfig('gateway', 8080, {})).toEqual({
      service: 'gateway',
      port: 8080,
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/artemis_studio',
      natsUrl: 'nats://127.0.0.1:4222',
      migrateOnStart: true,
      eventsStream: { maxBytes: 1024 * 1024 * 1024, maxMsgs: -1 },
    });
  });

  it('lists every problem at once', () => {
    expect(() => loadServiceConfig('gateway', 8080, { PORT: 'eighty', DATABASE_URL: 'mysql://x' })).toThrow(
      ConfigError,
    );
    try {
      loadServiceConfig('gateway', 8080, { PORT: 'eighty', DATABASE_URL: 'mysql://x' });
    } catch (err) {
      expect((err as Error).message).toMatch(/PORT[\s\S]*DATABASE_URL/);
    }
  });
});
