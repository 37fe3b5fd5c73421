import { DomainError } from '../domain-error';
import { canonical, type EarlierRequest } from './action-request.repository';
import { idempotencyKey, once } from './idempotency';

/** The repository's contract in memory: what the PostgreSQL table does, per key. */
function memoryRequests() {
  const rows = new Map<string, { request: string; status: number | null; response: unknown }>();
  return {
    rows,
    claim: async (_c: string, key: string, request: object): Promise<EarlierRequest> => {
      const row = rows.get(key);
      if (!row) {
        rows.set(key, { request: canonical(request), status: null, response: null });
        return { state: 'new' };
      }
      if (row.request !== canonical(request)) return { state: 'other-request' };
      if (row.status === null) return { state: 'running' };
      return { state: 'answered', status: row.status, response: row.response };
    },
    answer: async (_c: string, key: string, status: number, response: unknown) => {
      rows.set(key, { ...rows.get(key)!, status, response });
    },
    forget: async (_c: string, key: string) => void rows.delete(key),
  };
}

describe('once', () => {
  const request = { action: 'purge', queue: 'orders' };

  it('acts once for a key and answers a retry with the first answer', async () => {
    const requests = memoryRequests();
    let acted = 0;
    const act = async () => ({ purged: ++acted });
    let replays = 0;
    const replayed = () => void replays++;
    expect(await once(requests, 'c', 'key-0001', request, act, replayed)).toEqual({ purged: 1 });
    expect(replays).toBe(0);
    expect(
      await once(requests, 'c', 'key-0001', { queue: 'orders', action: 'purge' }, act, replayed),
    ).toEqual({
      purged: 1,
    });
    expect(acted).toBe(1);
    expect(replays).toBe(1);
  });

  it('refuses a key sent again with another request, and one still running', async () => {
    const requests = memoryRequests();
    let finish!: () => void;
    const running = once(requests, 'c', 'key-0002', request, () => new Promise<void>((r) => (finish = r)));
    await expect(once(requests, 'c', 'key-0002', request, async () => undefined)).rejects.toMatchObject({
      code: 'ACTION_IN_PROGRESS',
    });
    await expect(
      once(requests, 'c', 'key-0002', { ...request, queue: 'other' }, async () => undefined),
    ).rejects.toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    finish();
    await running;
  });

  it('frees the key after a failure that changed nothing, so the retry acts', async () => {
    const requests = memoryRequests();
    const busy = new DomainError('locked', 'BROKER_BUSY', 'busy');
    await expect(once(requests, 'c', 'key-0003', request, () => Promise.reject(busy))).rejects.toBe(busy);
    expect(await once(requests, 'c', 'key-0003', request, async () => 'done')).toBe('done');
  });

  it('never acts again after a timeout: the outcome is unknown, and said so', async () => {
    const requests = memoryRequests();
    const timeout = new DomainError('timeout', 'OWNER_TIMEOUT', 'no answer in time');
    await expect(once(requests, 'c', 'key-0004', request, () => Promise.reject(timeout))).rejects.toBe(
      timeout,
    );
    let acted = false;
    await expect(
      once(requests, 'c', 'key-0004', request, async () => void (acted = true)),
    ).rejects.toMatchObject({ code: 'ACTION_OUTCOME_UNKNOWN' });
    expect(acted).toBe(false);
  });
});

describe('once, after a gateway died mid-action', () => {
  it('answers the outcome unknown, and does not act', async () => {
    let acted = false;
    const requests = {
      claim: async (): Promise<EarlierRequest> => ({ state: 'abandoned' }),
      answer: async () => undefined,
      forget: async () => undefined,
    };
    await expect(once(requests, 'c', 'key-0005', {}, async () => void (acted = true))).rejects.toMatchObject({
      code: 'ACTION_OUTCOME_UNKNOWN',
    });
    expect(acted).toBe(false);
  });
});

describe('idempotencyKey', () => {
  it('requires a printable key of 8 to 200 characters', () => {
    expect(idempotencyKey('6f1c1d2e-0b7a-4d35-9a51-1b2f3c4d5e6f')).toBe(
      '6f1c1d2e-0b7a-4d35-9a51-1b2f3c4d5e6f',
    );
    expect(() => idempotencyKey(undefined)).toThrow(/needs an Idempotency-Key/);
    expect(() => idempotencyKey('short')).toThrow(/8 to 200/);
    expect(() => idempotencyKey('has space in it')).toThrow(/8 to 200/);
  });
});
