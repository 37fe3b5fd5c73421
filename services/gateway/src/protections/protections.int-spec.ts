import { ProtectionListSchema, ProtectionSchema, REASON_HEADER } from '@artemis-studio/contracts';
import { randomUUID } from 'node:crypto';
import { BrokerActionsStack } from '../broker-actions/broker-actions-stack.fixture';

const json = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

/** Protected queues against the real broker: who may take their messages, and that none deletes them. */
describe('protected queues and addresses against the real broker', () => {
  const stack = new BrokerActionsStack();

  beforeAll(() => stack.start(), 120_000);
  afterAll(() => stack.stop());

  const errorCode = async (response: Response) =>
    ((await response.json()) as { error: { code: string } }).error.code;
  const purge = (as: typeof stack.admin, queue: string, reason?: string) =>
    as.fetch(`${stack.base()}/queues/${queue}/purge`, {
      method: 'POST',
      headers: {
        'Idempotency-Key': randomUUID(),
        ...(reason === undefined ? {} : { [REASON_HEADER]: reason }),
      },
    });

  it("refuses an operator's purge of a protected queue, takes an administrator's only with a reason, and audits why", async () => {
    const tag = randomUUID().slice(0, 8);
    const queue = `orders.${tag}.DLQ`;
    await stack.fill(queue, 5);
    // Offered the suggestions, an administrator protects the cluster's dead-letter queues.
    const before = ProtectionListSchema.parse(
      await (await stack.viewer.fetch(`${stack.base()}/protections`)).json(),
    );
    expect(before.suggestions.map((s) => s.pattern)).toContain('*.DLQ');
    expect(
      (
        await stack.operator.fetch(
          `${stack.base()}/protections`,
          json('POST', { pattern: `*.${tag}.DLQ`, reason: 'x' }),
        )
      ).status,
    ).toBe(403);
    const created = await stack.admin.fetch(
      `${stack.base()}/protections`,
      json('POST', { pattern: `*.${tag}.DLQ`, reason: 'evidence for the payments team' }),
    );
    expect(created.status).toBe(201);
    const protection = ProtectionSchema.parse(await created.json());
    expect(
      (
        await stack.admin.fetch(
          `${stack.base()}/protections`,
          json('POST', { pattern: `*.${tag}.DLQ`, reason: 'again' }),
        )
      ).status,
    ).toBe(409);

    const byOperator = await purge(stack.operator, queue, 'cleaning up');
    expect(byOperator.status).toBe(403);
    expect(await errorCode(byOperator)).toBe('PROTECTED_NEEDS_ADMIN');
    const withoutReason = await purge(stack.admin, queue);
    expect(withoutReason.status).toBe(400);
    expect(await errorCode(withoutReason)).toBe('REASON_REQUIRED');
    const deleteJob = await stack.operator.fetch(`${stack.base()}/queues/${queue}/messages/delete`, {
      ...json('POST', {}),
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
    });
    expect(deleteJob.status).toBe(403);
    expect((await stack.onBroker(queue))?.MessageCount).toBe(5);

    // As the console sends it: percent-encoded UTF-8, since a header carries Latin-1 only.
    const why = 'réinjecté en recette, ticket OPS-42';
    const purged = await stack.result(await purge(stack.admin, queue, encodeURIComponent(why)));
    expect(purged.messages).toBe(5);
    expect((await stack.onBroker(queue))?.MessageCount).toBe(0);
    const [row] = await stack.audited('queue.purge', queue);
    expect(row).toEqual(
      expect.objectContaining({
        outcome: 'success',
        detail: expect.objectContaining({ reason: why, messages: 5 }),
      }),
    );
    const refusals = await stack.audited('queue.purge', queue);
    expect(refusals.filter((r) => r.outcome !== 'success').map((r) => r.code)).toEqual(
      expect.arrayContaining(['PROTECTED_NEEDS_ADMIN', 'REASON_REQUIRED']),
    );

    // Deleting it is refused to everyone until the protection is lifted, which is audited.
    const deleted = await stack.act(stack.admin, 'DELETE', queue, randomUUID());
    expect(deleted.status).toBe(409);
    expect(await errorCode(deleted)).toBe('SUBJECT_PROTECTED');
    expect(await stack.onBroker(queue)).not.toBeNull();
    const lifted = await stack.admin.fetch(`${stack.base()}/protections/${protection.id}`, {
      method: 'DELETE',
    });
    expect(lifted.status).toBe(200);
    expect(await stack.audited('protection.delete', `*.${tag}.DLQ`)).toHaveLength(1);
    expect((await stack.act(stack.admin, 'DELETE', queue, randomUUID())).status).toBe(200);
    expect(await stack.onBroker(queue)).toBeNull();
  }, 60_000);
});
