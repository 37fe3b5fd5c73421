import { ClusterOwnerEnvSchema, ConfigError, environmentProblems, loadServiceConfig } from './service-config';

describe('loadServiceConfig', () => {
  it('applies local defaults', () => {
    expect(loadServiceConfig('gateway', 8080, {}, false)).toEqual({
      service: 'gateway',
      port: 8080,
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/artemis_studio',
      natsUrl: 'nats://127.0.0.1:4222',
      natsReplicas: 'auto',
      migrateOnStart: true,
      logLevel: 'info',
      logFormat: 'json',
      eventsStream: { maxBytes: 1024 * 1024 * 1024, maxMsgs: -1 },
    });
  });

  it('logs readably at a terminal and as JSON anywhere else, unless LOG_FORMAT says', () => {
    expect(loadServiceConfig('gateway', 8080, {}, true).logFormat).toBe('pretty');
    expect(loadServiceConfig('gateway', 8080, {}, false).logFormat).toBe('json');
    expect(loadServiceConfig('gateway', 8080, { LOG_FORMAT: 'json' }, true).logFormat).toBe('json');
    expect(loadServiceConfig('gateway', 8080, { LOG_FORMAT: 'pretty' }, false).logFormat).toBe('pretty');
    expect(() => loadServiceConfig('gateway', 8080, { LOG_FORMAT: 'xml' }, false)).toThrow(/LOG_FORMAT/);
  });

  it('keeps NATS_REPLICAS as auto or a number from 1 to 5', () => {
    expect(loadServiceConfig('gateway', 8080, { NATS_REPLICAS: '3' }, false).natsReplicas).toBe(3);
    expect(loadServiceConfig('gateway', 8080, { NATS_REPLICAS: 'auto' }, false).natsReplicas).toBe('auto');
    expect(() => loadServiceConfig('gateway', 8080, { NATS_REPLICAS: 'many' }, false)).toThrow(
      /NATS_REPLICAS/,
    );
    expect(() => loadServiceConfig('gateway', 8080, { NATS_REPLICAS: '7' }, false)).toThrow(/NATS_REPLICAS/);
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

describe('environmentProblems', () => {
  const key = Buffer.alloc(32, 1).toString('base64');

  it('names each bad variable once per problem, never its value', () => {
    const problems = environmentProblems(ClusterOwnerEnvSchema, {
      DATABASE_URL: 'postgres://',
      NATS_URL: 'nats://a:4222,foo',
      LEASE_TTL_MS: '-5',
      STUDIO_SECRET_KEY: Buffer.alloc(16).toString('base64'),
    });
    expect(problems.map((p) => p.split(': ')[1])).toEqual([
      'DATABASE_URL',
      'NATS_URL',
      'STUDIO_SECRET_KEY',
      'LEASE_TTL_MS',
    ]);
    expect(problems.join('\n')).not.toContain('foo');
  });

  it('accepts several NATS servers and a 32-byte key, and says when the key is missing', () => {
    expect(
      environmentProblems(ClusterOwnerEnvSchema, {
        NATS_URL: 'nats://a:4222, tls://b:4222',
        STUDIO_SECRET_KEY: key,
      }),
    ).toEqual([]);
    expect(environmentProblems(ClusterOwnerEnvSchema, {})).toEqual([
      expect.stringMatching(/^invalid environment: STUDIO_SECRET_KEY: must be set: 32 random bytes/),
    ]);
  });

  it("takes a pod's name as the replica id, and refuses one that is not a plain name", () => {
    const env = { STUDIO_SECRET_KEY: key };
    expect(
      environmentProblems(ClusterOwnerEnvSchema, { ...env, STUDIO_REPLICA_ID: 'studio-notifier-7c9f-x2kq' }),
    ).toEqual([]);
    expect(environmentProblems(ClusterOwnerEnvSchema, { ...env, STUDIO_REPLICA_ID: 'a b' })).toEqual([
      expect.stringMatching(/^invalid environment: STUDIO_REPLICA_ID: must be 1 to 200 letters/),
    ]);
  });
});
