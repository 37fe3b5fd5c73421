import {
  QueueMessagesPageSchema,
  UnmaskedWindowListSchema,
  UnmaskedWindowSchema,
} from '@artemis-studio/contracts';
import { createDataSource } from '@artemis-studio/db';
import { openAmqpClient, testDatabaseUrl } from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { BrokerActionsStack } from '../broker-actions/broker-actions-stack.fixture';

const json = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

/** Break-glass access to masked bodies against the real broker: masked before, open during, masked after. */
describe('break-glass windows on masked bodies against the real broker', () => {
  const stack = new BrokerActionsStack();
  let db: DataSource;

  beforeAll(async () => {
    db = await createDataSource({ url: testDatabaseUrl(), poolSize: 1 }).initialize();
    await stack.start();
  }, 120_000);
  afterAll(async () => {
    await stack.settings({ masking: { properties: [], bodyPaths: [] } });
    await stack.stop();
    await db.destroy();
  });

  it("opens one queue's bodies to one administrator for a while, audits each message seen, and masks again when it ends", async () => {
    const queue = `actions.unmasked.${randomUUID().slice(0, 8)}`;
    const client = await openAmqpClient(
      stack.broker.nodes[0].amqpUrl,
      stack.broker.user,
      stack.broker.password,
    );
    try {
      const sender = await client.createAwaitableSender({
        target: { address: queue, capabilities: ['queue'] },
      });
      await sender.send({
        body: '{"card":"4111111111111111"}',
        application_properties: { email: 'alice@example.com' },
      });
    } finally {
      await client.close();
    }
    expect((await stack.settings({ masking: { properties: ['email'], bodyPaths: ['$.card'] } })).status).toBe(
      200,
    );
    const browse = async (as: typeof stack.admin) => {
      const response = await as.fetch(`${stack.base()}/queues/${queue}/messages`);
      expect(response.status).toBe(200);
      return QueueMessagesPageSchema.parse(await response.json());
    };
    const shows = (page: Awaited<ReturnType<typeof browse>>) => JSON.stringify(page.messages);

    expect(shows(await browse(stack.admin))).not.toContain('4111111111111111');
    // Only an administrator opens a window, for no longer than the setting, and says why.
    expect(
      (
        await stack.operator.fetch(
          `${stack.base()}/queues/${queue}/unmasked-windows`,
          json('POST', { minutes: 5, reason: 'x' }),
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await stack.admin.fetch(
          `${stack.base()}/queues/${queue}/unmasked-windows`,
          json('POST', { minutes: 61, reason: 'x' }),
        )
      ).status,
    ).toBe(400);
    const opened = await stack.admin.fetch(
      `${stack.base()}/queues/${queue}/unmasked-windows`,
      json('POST', { minutes: 5, reason: 'the customer disputes the charge', ticket: 'SUP-981' }),
    );
    expect(opened.status).toBe(201);
    const window = UnmaskedWindowSchema.parse(await opened.json());
    const list = UnmaskedWindowListSchema.parse(
      await (await stack.viewer.fetch(`${stack.base()}/unmasked-windows`)).json(),
    );
    expect(list.items).toEqual([expect.objectContaining({ id: window.id, queue, ticket: 'SUP-981' })]);

    const during = await browse(stack.admin);
    expect(shows(during)).toContain('4111111111111111');
    expect(shows(during)).toContain('alice@example.com');
    expect(during.unmaskedUntil).toBe(window.endsAt);
    // Another person meanwhile still reads it masked: the window is its opener's.
    expect(shows(await browse(stack.operator))).not.toContain('4111111111111111');
    const [viewed] = await stack.audited('message.view-unmasked', queue);
    expect(viewed.detail).toEqual(
      expect.objectContaining({ windowId: window.id, messageIds: during.messages.map((m) => m.messageId) }),
    );

    // Ended early (audited), masked at once; a window past its time is as good as ended.
    expect(
      (await stack.admin.fetch(`${stack.base()}/unmasked-windows/${window.id}/end`, json('POST', {}))).status,
    ).toBe(200);
    expect(shows(await browse(stack.admin))).not.toContain('4111111111111111');
    expect(
      (await stack.admin.fetch(`${stack.base()}/unmasked-windows/${window.id}/end`, json('POST', {}))).status,
    ).toBe(409);
    const second = UnmaskedWindowSchema.parse(
      await (
        await stack.admin.fetch(
          `${stack.base()}/queues/${queue}/unmasked-windows`,
          json('POST', { minutes: 1, reason: 'again' }),
        )
      ).json(),
    );
    expect(shows(await browse(stack.admin))).toContain('4111111111111111');
    await db.query(`UPDATE unmasked_window SET ends_at = now() - interval '1 second' WHERE id = $1`, [
      second.id,
    ]);
    expect(shows(await browse(stack.admin))).not.toContain('4111111111111111');
    const opens = await stack.audited('message.unmask', queue);
    expect(opens.map((r) => [r.outcome, r.code])).toEqual([
      ['success', null],
      ['success', null],
      ['failure', 'VALIDATION_FAILED'], // the 61 minutes asked for, past the setting
    ]);
  }, 60_000);
});
