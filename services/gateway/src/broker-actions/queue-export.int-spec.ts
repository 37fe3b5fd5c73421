import {
  ExportedMessageSchema,
  QueueImportReportSchema,
  type ExportedMessage,
} from '@artemis-studio/contracts';
import { depthOf, errorOf, queueMbean } from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import { BrokerActionsStack } from './broker-actions-stack.fixture';

/** Exports (issue 60): a queue read once over AMQP by its owner, streamed as NDJSON by the gateway. */
describe("exporting a queue's messages on a real broker", () => {
  const stack = new BrokerActionsStack();

  beforeAll(() => stack.start(), 120_000);
  afterAll(() => stack.stop());

  const post = (path: string, body: unknown) =>
    stack.operator.fetch(`${stack.base()}/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
      body: JSON.stringify(body),
    });
  const exported = async (queue: string, query = '') => {
    const response = await stack.operator.fetch(`${stack.base()}/queues/${queue}/export${query}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/x-ndjson');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.ndjson"$/);
    const text = await response.text();
    return text
      .split('\n')
      .filter(Boolean)
      .map((line) => ExportedMessageSchema.parse(JSON.parse(line)));
  };
  const linesOf = (text: string) =>
    text
      .split('\n')
      .filter(Boolean)
      .map((line) => ExportedMessageSchema.parse(JSON.parse(line)));
  const property = (m: ExportedMessage, name: string) => m.properties.find((p) => p.name === name);

  it('exports every message once, typed and whole, past the browse page, and leaves the queue as it was', async () => {
    const queue = `actions.export.${randomUUID().slice(0, 8)}`;
    expect((await post('queues', { name: queue })).status).toBe(200);
    const typed = await post(`queues/${queue}/messages`, {
      body: '{"order":1,"customer":{"email":"alice@example.com"}}',
      properties: [
        { name: 'attempt', type: 'int', value: '3' },
        { name: 'orderId', type: 'long', value: '1152921504606846977' },
        { name: 'amount', type: 'double', value: '12.5' },
        { name: 'urgent', type: 'boolean', value: 'true' },
        { name: 'email', type: 'string', value: 'alice@example.com' },
      ],
    });
    expect(typed.status).toBe(200);
    const bytes = Buffer.from([0xff, 0xfe, 0x00, 0x41]);
    const binary = await post(`queues/${queue}/messages`, {
      body: bytes.toString('base64'),
      bodyEncoding: 'base64',
      properties: [{ name: 'kind', type: 'string', value: 'bytes' }],
    });
    expect(binary.status).toBe(200);
    // Past the broker's browse limit (200) and past one part of the export (100 a read).
    await stack.fill(queue, 250);
    const big = 'b'.repeat(100_000);
    expect((await post(`queues/${queue}/messages`, { body: big })).status).toBe(200);

    const lines = await exported(queue);
    expect(lines).toHaveLength(253);
    const [first, second] = lines;
    expect(first.source).toEqual({ clusterId: stack.clusterId, node: stack.broker.nodes[0].name, queue });
    expect(first.body).toEqual({
      encoding: 'text',
      data: '{"order":1,"customer":{"email":"alice@example.com"}}',
      truncated: false,
      masked: null,
    });
    expect(first.properties).toEqual(
      expect.arrayContaining([
        { name: 'attempt', type: 'int', value: '3' },
        // All 64 bits, as the application sent them.
        { name: 'orderId', type: 'long', value: '1152921504606846977' },
        { name: 'amount', type: 'double', value: '12.5' },
        { name: 'urgent', type: 'boolean', value: 'true' },
      ]),
    );
    expect(first.durable).toBe(true);
    expect(second.body).toEqual({
      encoding: 'base64',
      data: bytes.toString('base64'),
      truncated: false,
      masked: null,
    });
    expect(property(second, 'kind')).toEqual({ name: 'kind', type: 'string', value: 'bytes' });
    expect(lines.at(-1)!.body.data).toBe(big);
    // A browse: nothing was taken.
    expect(await depthOf(stack.broker, queue)).toBe(253);

    // The broker's own filter, applied as it reads.
    const filtered = await exported(queue, `?filter=${encodeURIComponent("kind = 'bytes'")}`);
    expect(filtered).toHaveLength(1);
    expect(filtered[0].body.encoding).toBe('base64');

    // As for a browse, the cluster's masking rules apply before anything leaves the gateway.
    const { settings } = stack;
    expect(
      (await settings({ masking: { properties: ['email'], bodyPaths: ['$.customer.email'] } })).status,
    ).toBe(200);
    try {
      const response = await stack.operator.fetch(
        `${stack.base()}/queues/${queue}/export?filter=${encodeURIComponent('attempt = 3')}`,
      );
      const text = await response.text();
      expect(text).not.toContain('alice@example.com');
      const [masked] = text
        .split('\n')
        .filter(Boolean)
        .map((line) => ExportedMessageSchema.parse(JSON.parse(line)));
      expect(property(masked, 'email')).toEqual({
        name: 'email',
        type: 'string',
        value: '***',
        masked: true,
      });
      expect(masked.body.masked).toBe('masked');
      expect(JSON.parse(masked.body.data!)).toEqual({ order: 1, customer: { email: '***' } });
    } finally {
      await settings({ masking: { properties: [], bodyPaths: [] } });
    }

    // Each export audited as it started: who took which queue's messages out, with which filter.
    const rows = await stack.audited('queue.export', queue);
    expect(rows.map((r) => [r.outcome, r.detail])).toEqual(
      expect.arrayContaining([
        ['success', {}],
        ['success', { filter: "kind = 'bytes'" }],
        ['success', { filter: 'attempt = 3' }],
      ]),
    );
  }, 120_000);

  it('puts an export back: checked first, then, once purged, the same messages typed as before, once per key', async () => {
    const queue = `actions.roundtrip.${randomUUID().slice(0, 8)}`;
    expect((await post('queues', { name: queue })).status).toBe(200);
    for (let i = 0; i < 30; i++)
      expect(
        (
          await post(`queues/${queue}/messages`, {
            body: i % 3 === 0 ? Buffer.from([i, 0xff, 0]).toString('base64') : `{"n":${i}}`,
            bodyEncoding: i % 3 === 0 ? 'base64' : 'text',
            properties: [
              { name: 'n', type: 'int', value: String(i) },
              { name: 'id', type: 'long', value: String(1152921504606846976n + BigInt(i)) },
              { name: 'ok', type: 'boolean', value: String(i % 2 === 0) },
            ],
          })
        ).status,
      ).toBe(200);
    const file = await (await stack.operator.fetch(`${stack.base()}/queues/${queue}/export`)).text();
    const before = linesOf(file);
    expect(before).toHaveLength(30);

    const importing = (query: string, body: string, key = randomUUID()) =>
      stack.operator.fetch(`${stack.base()}/queues/${queue}/import${query}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-ndjson', 'Idempotency-Key': key },
        body,
      });
    const dryRun = await importing('?dryRun=true', file);
    expect(dryRun.status).toBe(200);
    expect(QueueImportReportSchema.parse(await dryRun.json())).toEqual({
      dryRun: true,
      queue,
      node: stack.broker.nodes[0].name,
      messages: 30,
      imported: 0,
      leftOut: { masked: 0, broker: 0 },
    });
    expect(await depthOf(stack.broker, queue)).toBe(30);

    // A file with a line that is not a message, or whose body was cut, is refused whole.
    const cut = JSON.stringify({ ...before[1], body: { ...before[1].body, truncated: true } });
    const refused = await importing('', [JSON.stringify(before[0]), cut, '{"not":"a message"}'].join('\n'));
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      /^2 lines cannot be imported, so nothing was: line 2: its body was cut at export.*; line 3: not an exported message/,
    );
    expect(await depthOf(stack.broker, queue)).toBe(30);

    const purged = await stack.jolokia({
      type: 'exec',
      mbean: queueMbean(stack.broker, queue),
      operation: 'removeAllMessages()',
      arguments: [],
    });
    expect(purged.value).toBe(30);
    const key = randomUUID();
    const started = Date.now();
    const imported = await importing('?rate=20', file, key);
    expect(imported.status).toBe(200);
    expect(QueueImportReportSchema.parse(await imported.json())).toEqual(
      expect.objectContaining({ dryRun: false, messages: 30, imported: 30 }),
    );
    // 30 at 20 a second, in parts of 10 (half a second each): the third goes 1 s after the first.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    const after = linesOf(
      await (await stack.operator.fetch(`${stack.base()}/queues/${queue}/export`)).text(),
    );
    const kept = (m: ExportedMessage) => [
      m.body,
      m.properties,
      m.durable,
      m.priority,
      m.messageId,
      m.createdAt,
    ];
    expect(after.map(kept)).toEqual(before.map(kept));

    // The same key again is the same import: answered as it was, nothing sent twice.
    const again = await importing('?rate=20', file, key);
    expect(again.status).toBe(200);
    expect(await depthOf(stack.broker, queue)).toBe(30);
    const [row] = await stack.audited('queue.import', queue);
    expect(row).toEqual(expect.objectContaining({ outcome: 'success' }));
  }, 120_000);

  it('answers a queue that is nowhere, or a viewer, with an error, not a broken download', async () => {
    expect(await errorOf(await stack.operator.fetch(`${stack.base()}/queues/no.such.queue/export`))).toEqual({
      status: 404,
      code: expect.any(String),
    });
    const viewer = await stack.viewer.fetch(`${stack.base()}/queues/anything/export`);
    expect(viewer.status).toBe(403);
  });
});
