import {
  BrokerChangeResultSchema,
  QueueActionResultSchema,
  QueueMessagesPageSchema,
  type AuditEvent,
  type QueueActionResult,
} from '@artemis-studio/contracts';
import { createDataSource } from '@artemis-studio/db';
import {
  brokerJolokia,
  errorOf,
  brokerProfile,
  deadLetter,
  openAmqpClient,
  registerLiveBroker,
  signIn,
  signInAs,
  spawnService,
  testConfig,
  testDatabaseUrl,
  waitFor,
  type ApiSession,
  type BrokerProfile,
  type ServiceProcess,
} from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';

/**
 * Queue actions against the real test broker, through the whole path: gateway → the cluster's
 * owner (a scraper) → Jolokia. What the API says is checked against what the broker says after.
 */
describe('queue actions on a real broker', () => {
  const processes: ServiceProcess[] = [];
  let broker: BrokerProfile;
  let gateway: ServiceProcess;
  let admin: ApiSession;
  let operator: ApiSession;
  let viewer: ApiSession;
  let clusterId: string;
  const base = () => `${gateway.url}/api/v1/clusters/${clusterId}`;

  const jolokia = (body: object) => brokerJolokia(broker, body);
  /** The queue's attributes as the broker has them now, or null when it has no such queue. */
  const onBroker = async (queue: string) => {
    const answer = await jolokia({
      type: 'read',
      mbean: `org.apache.activemq.artemis:broker="${broker.nodes[0].name}",component=addresses,address="${queue}",subcomponent=queues,routing-type="anycast",queue="${queue}"`,
      attribute: ['MessageCount', 'Paused'],
    });
    return answer.status === 200 ? (answer.value as { MessageCount: number; Paused: boolean }) : null;
  };
  const fill = async (queue: string, count: number) => {
    const client = await openAmqpClient(broker.nodes[0].amqpUrl, broker.user, broker.password);
    try {
      const sender = await client.createAwaitableSender({
        target: { address: queue, capabilities: ['queue'] },
      });
      for (let i = 0; i < count; i++) await sender.send({ body: `message ${i}`, durable: true });
    } finally {
      await client.close();
    }
  };
  /** An action on a queue (`path` is `<queue>/<action>`, or the queue alone for a delete). */
  const act = (as: ApiSession, method: 'POST' | 'DELETE', path: string, key?: string, body?: unknown) =>
    as.fetch(`${base()}/queues/${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...(key ? { 'Idempotency-Key': key } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const result = async (response: Response): Promise<QueueActionResult> => {
    expect(response.status).toBe(200);
    return QueueActionResultSchema.parse(await response.json());
  };
  const audited = async (action: string, target: string): Promise<AuditEvent[]> => {
    const response = await admin.fetch(`${gateway.url}/api/v1/audit?action=${action}&clusterId=${clusterId}`);
    return ((await response.json()) as { items: AuditEvent[] }).items.filter((e) => e.target === target);
  };

  beforeAll(async () => {
    broker = await brokerProfile(testConfig.brokerProfile);
    gateway = await spawnService('gateway', 18570);
    processes.push(gateway, await spawnService('scraper', 18571), await spawnService('event-store', 18572));
    processes.push(await spawnService('notifier', 18573));
    admin = await signIn(gateway.url);
    operator = await signInAs(gateway.url, admin, 'operator');
    viewer = await signInAs(gateway.url, admin, 'viewer');
    clusterId = await registerLiveBroker(gateway.url, admin, broker, {
      name: `actions-${randomUUID().slice(0, 8)}`,
      amqp: true,
    });
  }, 120_000);

  afterAll(async () => {
    await admin
      ?.fetch(`${gateway.url}/api/v1/clusters/${clusterId}`, { method: 'DELETE' })
      .catch(() => undefined);
    await Promise.all(processes.map((p) => p.stop()));
  });

  it('counts a purge first, purges exactly that, and a replayed key purges nothing more', async () => {
    const queue = `actions.purge.${randomUUID().slice(0, 8)}`;
    await fill(queue, 25);
    const impact = await result(await operator.fetch(`${base()}/queues/${queue}/impact?action=purge`));
    expect(impact).toEqual(expect.objectContaining({ dryRun: true, messages: 25 }));
    expect((await onBroker(queue))?.MessageCount).toBe(25);

    const key = randomUUID();
    const purged = await result(await act(operator, 'POST', `${queue}/purge`, key));
    expect(purged.messages).toBe(25);
    expect(purged.nodes).toEqual([
      expect.objectContaining({
        node: broker.nodes[0].name,
        outcome: 'done',
        depthBefore: 25,
        depthAfter: 0,
      }),
    ]);
    expect((await onBroker(queue))?.MessageCount).toBe(0);

    // A retried click: the same answer, and the messages sent since stay.
    await fill(queue, 3);
    expect(await result(await act(operator, 'POST', `${queue}/purge`, key))).toEqual(purged);
    expect((await onBroker(queue))?.MessageCount).toBe(3);
    // The same key for another action is refused, not taken for the purge.
    expect(await errorOf(await act(operator, 'POST', `${queue}/resume`, key))).toEqual({
      status: 400,
      code: 'IDEMPOTENCY_KEY_REUSED',
    });

    // Newest first: the retried click, audited as one that did nothing, then the purge itself.
    const [retried, row] = await audited('queue.purge', queue);
    expect(retried.detail).toEqual(expect.objectContaining({ replayed: true }));
    expect(row.detail).not.toHaveProperty('replayed');
    expect(row).toEqual(
      expect.objectContaining({
        outcome: 'success',
        actor: expect.objectContaining({ name: expect.stringMatching(/^operator-/) }),
        detail: expect.objectContaining({
          messages: 25,
          nodes: [expect.objectContaining({ outcome: 'done', depthBefore: 25, depthAfter: 0 })],
        }),
      }),
    );
  });

  it('answers a key whose request was claimed and never answered (its gateway died) as unknown, and does not act', async () => {
    const queue = `actions.abandoned.${randomUUID().slice(0, 8)}`;
    await fill(queue, 2);
    const key = randomUUID();
    const db = await createDataSource({ url: testDatabaseUrl(), poolSize: 1 }).initialize();
    try {
      await db.query(
        `INSERT INTO action_request (cluster_id, idempotency_key, request, created_at)
         VALUES ($1, $2, $3, now() - interval '10 minutes')`,
        [clusterId, key, JSON.stringify({ action: 'purge', queue })],
      );
    } finally {
      await db.destroy();
    }
    expect(await errorOf(await act(operator, 'POST', `${queue}/purge`, key))).toEqual({
      status: 409,
      code: 'ACTION_OUTCOME_UNKNOWN',
    });
    expect((await onBroker(queue))?.MessageCount).toBe(2);
  });

  it("sends a dead-letter queue's messages back where they came from, counting them first", async () => {
    const work = `actions.work.${randomUUID().slice(0, 8)}`;
    // Three messages a consumer rejects: dead-lettered at once (one delivery attempt).
    const dlq = await deadLetter(broker, work, 3);
    await waitFor('three in the DLQ', async () => (await onBroker(dlq))?.MessageCount === 3);

    const impact = await result(await operator.fetch(`${base()}/queues/${dlq}/impact?action=retry`));
    expect(impact.messages).toBe(3);
    const retried = await result(await act(operator, 'POST', `${dlq}/retry`, randomUUID()));
    expect(retried.nodes[0]).toEqual(
      expect.objectContaining({ outcome: 'done', messages: 3, depthBefore: 3, depthAfter: 0 }),
    );
    expect((await onBroker(work))?.MessageCount).toBe(3);
  });

  it('pauses (persisted) and resumes, as the broker then says', async () => {
    const queue = `actions.pause.${randomUUID().slice(0, 8)}`;
    await fill(queue, 1);
    const paused = await result(
      await act(operator, 'POST', `${queue}/pause`, randomUUID(), { persist: true }),
    );
    expect(paused.nodes[0]).toEqual(expect.objectContaining({ outcome: 'done', paused: true }));
    expect((await onBroker(queue))?.Paused).toBe(true);
    const resumed = await result(await act(operator, 'POST', `${queue}/resume`, randomUUID()));
    expect(resumed.nodes[0]).toEqual(expect.objectContaining({ outcome: 'done', paused: false }));
    expect((await onBroker(queue))?.Paused).toBe(false);
  });

  it("refuses to delete a queue with a consumer in the broker's words, deletes it without, and the feed says so", async () => {
    const queue = `actions.delete.${randomUUID().slice(0, 8)}`;
    await fill(queue, 2);
    const client = await openAmqpClient(broker.nodes[0].amqpUrl, broker.user, broker.password);
    const receiver = await client.createReceiver({
      source: { address: queue, capabilities: ['queue'] },
      credit_window: 0,
    });
    const refused = await act(operator, 'DELETE', queue, randomUUID());
    expect(await errorOf(refused)).toEqual({ status: 409, code: 'BROKER_REFUSED' });
    expect(await onBroker(queue)).not.toBeNull();
    await receiver.close();
    await client.close();

    const impact = await result(await operator.fetch(`${base()}/queues/${queue}/impact?action=delete`));
    expect(impact.messages).toBe(2);
    await waitFor('the consumer to be gone from the broker', async () => {
      const response = await act(operator, 'DELETE', queue, randomUUID());
      if (response.status === 409) return false;
      expect((await result(response)).nodes[0]).toEqual(
        expect.objectContaining({ outcome: 'done', messages: 2 }),
      );
      return true;
    });
    expect(await onBroker(queue)).toBeNull();
    // The broker's own notification of it reaches the events feed.
    await waitFor(
      'QUEUE_DESTROYED in the history',
      async () => {
        const page = (await (
          await admin.fetch(`${base()}/events?queue=${queue}&type=BINDING_REMOVED`)
        ).json()) as {
          items: unknown[];
        };
        return page.items.length > 0;
      },
      { timeoutMs: 30_000 },
    );
    expect(await errorOf(await act(operator, 'DELETE', queue, randomUUID()))).toEqual({
      status: 404,
      code: 'NOT_ON_BROKER',
    });
  });

  it('refuses a viewer and a read-only cluster, audits each refusal, and needs an idempotency key', async () => {
    const queue = `actions.refused.${randomUUID().slice(0, 8)}`;
    await fill(queue, 4);
    /** The audit row of one answered request, found by its X-Request-Id. */
    const outcomeOf = async (response: Response) => {
      const requestId = response.headers.get('x-request-id');
      const rows = (await audited('queue.purge', queue)).concat(
        (
          (await (await admin.fetch(`${gateway.url}/api/v1/audit?action=queue.purge`)).json()) as {
            items: AuditEvent[];
          }
        ).items,
      );
      return rows.find((e) => e.requestId === requestId)?.outcome;
    };

    const byViewer = await act(viewer, 'POST', `${queue}/purge`, randomUUID());
    expect(await outcomeOf(byViewer)).toBe('denied');
    expect(await errorOf(byViewer)).toEqual({ status: 403, code: 'FORBIDDEN' });

    const withoutKey = await act(operator, 'POST', `${queue}/purge`);
    expect(await errorOf(withoutKey)).toEqual({ status: 400, code: 'IDEMPOTENCY_KEY_REQUIRED' });
    expect(await outcomeOf(withoutKey)).toBe('failure');

    const readOnly = (value: boolean) =>
      admin.fetch(base(), {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ readOnly: value }),
      });
    expect((await readOnly(true)).status).toBe(200);
    try {
      const refused = await act(operator, 'POST', `${queue}/purge`, randomUUID());
      expect(await errorOf(refused)).toEqual({ status: 403, code: 'CLUSTER_READ_ONLY' });
      expect(await outcomeOf(refused)).toBe('denied');
    } finally {
      await readOnly(false);
    }
    expect((await onBroker(queue))?.MessageCount).toBe(4);
  });

  it('browses text, bytes, a 1 MiB body and a paged queue, marks what the broker cut, and says an invalid filter in its words', async () => {
    const queue = `actions.browse.${randomUUID().slice(0, 8)}`;
    // Paging from the first kilobytes: the queue holds more than its address may keep in memory.
    const paging = await jolokia({
      type: 'exec',
      mbean: `org.apache.activemq.artemis:broker="${broker.nodes[0].name}"`,
      operation: 'addAddressSettings(java.lang.String,java.lang.String)',
      arguments: [
        queue,
        JSON.stringify({ maxSizeBytes: 20480, pageSizeBytes: 10240, addressFullMessagePolicy: 'PAGE' }),
      ],
    });
    expect(paging.status).toBe(200);
    const client = await openAmqpClient(broker.nodes[0].amqpUrl, broker.user, broker.password);
    try {
      const sender = await client.createAwaitableSender({
        target: { address: queue, capabilities: ['queue'] },
      });
      await sender.send({ body: 'héllo, wörld', application_properties: { customer: 'alice', n: 3 } });
      await sender.send({
        body: Buffer.from([0xff, 0xfe, 0x00, 0x41]),
        application_properties: { customer: 'bob' },
      });
      await sender.send({ body: 'x'.repeat(1024 * 1024) });
      await sender.send({ body: 'z'.repeat(1000) });
      for (let i = 0; i < 200; i++) await sender.send({ body: `filler ${i} ${'y'.repeat(500)}` });
    } finally {
      await client.close();
    }
    const addressState = await jolokia({
      type: 'read',
      mbean: `org.apache.activemq.artemis:broker="${broker.nodes[0].name}",component=addresses,address="${queue}"`,
      attribute: 'Paging',
    });
    expect(addressState.value).toBe(true);
    const browse = async (query: string) => {
      const response = await operator.fetch(`${base()}/queues/${queue}/messages?${query}`);
      expect(response.status).toBe(200);
      return QueueMessagesPageSchema.parse(await response.json());
    };

    const first = await browse('pageSize=4');
    expect(first.depth).toBe(204);
    expect(first.matched).toBeNull();
    const [text, bytes, large, long] = first.messages;
    expect(text).toEqual(
      expect.objectContaining({
        type: 'text',
        properties: expect.objectContaining({
          'applicationProperties.customer': 'alice',
          'applicationProperties.n': 3,
        }),
        body: { preview: 'héllo, wörld', truncated: false, omitted: null, masked: null },
      }),
    );
    expect(bytes.body.preview).toBe('\\xff\\xfe\\x00A');
    // A large message's body is not shown at all; a long one is cut at the broker's limit, and says so.
    expect(large).toEqual(
      expect.objectContaining({
        largeMessage: true,
        body: { preview: null, truncated: true, omitted: null, masked: null },
      }),
    );
    expect(long.body).toEqual({ preview: 'z'.repeat(256), truncated: true, omitted: 744, masked: null });

    // Past what the address keeps in memory: the broker reads the page files for these.
    const deep = await browse('page=40&pageSize=5');
    expect(deep.messages.map((m) => m.body.preview?.slice(0, 10))).toEqual([
      'filler 191',
      'filler 192',
      'filler 193',
      'filler 194',
      'filler 195',
    ]);

    const filtered = await browse(`filter=${encodeURIComponent("customer = 'bob'")}`);
    expect(filtered.messages.map((m) => m.properties['applicationProperties.customer'])).toEqual(['bob']);
    // The broker counted among the first 200 of 204 only: a lower bound, said so.
    expect(filtered.matched).toEqual({ count: 1, atLeast: true });

    const invalid = await operator.fetch(
      `${base()}/queues/${queue}/messages?filter=${encodeURIComponent('customer =')}`,
    );
    expect(await errorOf(invalid)).toEqual({ status: 400, code: 'INVALID_REQUEST' });
    // Bodies are the operator's: a viewer is refused.
    expect(await errorOf(await viewer.fetch(`${base()}/queues/${queue}/messages`))).toEqual({
      status: 403,
      code: 'FORBIDDEN',
    });
  }, 120_000);

  it('masks properties and body paths before a message leaves the gateway, and lets the cluster choose who reads them', async () => {
    const queue = `actions.masked.${randomUUID().slice(0, 8)}`;
    const client = await openAmqpClient(broker.nodes[0].amqpUrl, broker.user, broker.password);
    try {
      const sender = await client.createAwaitableSender({
        target: { address: queue, capabilities: ['queue'] },
      });
      await sender.send({
        body: JSON.stringify({
          customer: { email: 'alice@example.com' },
          cards: [{ pan: '4111111111111111' }],
        }),
        application_properties: { email: 'alice@example.com', kind: 'order' },
      });
      await sender.send({ body: 'email=bob@example.com', application_properties: { kind: 'note' } });
    } finally {
      await client.close();
    }
    const settings = (body: unknown) =>
      admin.fetch(base(), {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect(
      (
        await settings({
          masking: { properties: ['email'], bodyPaths: ['$.customer.email', '$.cards[*].pan'] },
        })
      ).status,
    ).toBe(200);
    try {
      const response = await operator.fetch(`${base()}/queues/${queue}/messages`);
      const text = await response.text();
      // Nothing masked leaves the gateway, in any part of the answer.
      expect(text).not.toContain('alice@example.com');
      expect(text).not.toContain('4111111111111111');
      expect(text).not.toContain('bob@example.com');
      const [json, plain] = QueueMessagesPageSchema.parse(JSON.parse(text)).messages;
      expect(json.properties['applicationProperties.email']).toBe('***');
      expect(json.properties['applicationProperties.kind']).toBe('order');
      expect(JSON.parse(json.body.preview!)).toEqual({ customer: { email: '***' }, cards: [{ pan: '***' }] });
      expect(json.body.masked).toBe('masked');
      // Not JSON: the body paths cannot be applied, so the body is withheld.
      expect(plain.body).toEqual(expect.objectContaining({ preview: null, masked: 'withheld' }));

      expect((await viewer.fetch(`${base()}/queues/${queue}/messages`)).status).toBe(403);
      expect((await settings({ messageBodies: 'viewer' })).status).toBe(200);
      expect((await viewer.fetch(`${base()}/queues/${queue}/messages`)).status).toBe(200);
      expect((await settings({ messageBodies: 'admin' })).status).toBe(200);
      expect(await errorOf(await operator.fetch(`${base()}/queues/${queue}/messages`))).toEqual({
        status: 403,
        code: 'FORBIDDEN',
      });
      expect(
        await errorOf(await settings({ masking: { properties: [], bodyPaths: ['customer.email'] } })),
      ).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
    } finally {
      await settings({ messageBodies: 'operator', masking: { properties: [], bodyPaths: [] } });
    }
  }, 60_000);

  it("creates a queue with its settings, sends it a message the browse then shows, and refuses both again in the broker's words", async () => {
    const queue = `actions.created.${randomUUID().slice(0, 8)}`;
    const post = (as: ApiSession, path: string, body: unknown, key: string = randomUUID()) =>
      as.fetch(`${base()}/${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': key },
        body: JSON.stringify(body),
      });
    const created = await post(operator, 'queues', {
      name: queue,
      maxConsumers: 3,
      filter: "kind = 'order'",
    });
    expect(created.status).toBe(200);
    expect(BrokerChangeResultSchema.parse(await created.json()).nodes).toEqual([
      expect.objectContaining({ node: broker.nodes[0].name, outcome: 'done' }),
    ]);
    const onTheBroker = (await jolokia({
      type: 'read',
      mbean: `org.apache.activemq.artemis:broker="${broker.nodes[0].name}",component=addresses,address="${queue}",subcomponent=queues,routing-type="anycast",queue="${queue}"`,
      attribute: ['MaxConsumers', 'Filter', 'Durable'],
    })) as { value: { MaxConsumers: number; Filter: string; Durable: boolean } };
    expect(onTheBroker.value).toEqual({ MaxConsumers: 3, Filter: "kind = 'order'", Durable: true });
    // A second create is the broker's refusal, not a 500.
    expect(await errorOf(await post(operator, 'queues', { name: queue }))).toEqual({
      status: 409,
      code: 'BROKER_REFUSED',
    });

    const key = randomUUID();
    const sent = await post(
      operator,
      `queues/${queue}/messages`,
      { body: 'sent from Studio', headers: { kind: 'order' } },
      key,
    );
    expect(sent.status).toBe(200);
    // A retried click sends nothing more.
    expect(
      (
        await post(
          operator,
          `queues/${queue}/messages`,
          { body: 'sent from Studio', headers: { kind: 'order' } },
          key,
        )
      ).status,
    ).toBe(200);
    expect((await onBroker(queue))?.MessageCount).toBe(1);
    const page = QueueMessagesPageSchema.parse(
      await (await operator.fetch(`${base()}/queues/${queue}/messages`)).json(),
    );
    expect(page.messages).toEqual([
      expect.objectContaining({
        body: expect.objectContaining({ preview: 'sent from Studio' }),
        properties: expect.objectContaining({ kind: 'order' }),
      }),
    ]);
    // The body never reaches the audit trail.
    const [row] = await audited('message.send', queue);
    expect(row.detail).toEqual(expect.objectContaining({ bodyBytes: 16, headers: ['kind'] }));
    expect(JSON.stringify(row.detail)).not.toContain('sent from Studio');
    expect(await errorOf(await post(operator, 'queues/no.such.queue/messages', { body: 'x' }))).toEqual({
      status: 404,
      code: 'NOT_ON_BROKER',
    });
  });

  it('creates and deletes an address for an administrator only, and keeps bound queues unless told', async () => {
    const address = `actions.address.${randomUUID().slice(0, 8)}`;
    const request = (as: ApiSession, method: string, path: string, body?: unknown) =>
      as.fetch(`${base()}/${path}`, {
        method,
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    expect(await errorOf(await request(operator, 'POST', 'addresses', { name: address }))).toEqual({
      status: 403,
      code: 'FORBIDDEN',
    });
    const made = await request(admin, 'POST', 'addresses', { name: address, routingTypes: ['MULTICAST'] });
    // Its own words when it is not a 200, so a failure explains itself.
    expect(made.status === 200 ? 200 : await made.text()).toBe(200);
    expect({ status: made.status, body: await made.text() }).toEqual({
      status: 200,
      body: expect.any(String),
    });
    for (const sub of ['sub', 'sub2'])
      expect(
        (
          await request(operator, 'POST', 'queues', {
            name: `${address}.${sub}`,
            address,
            routingType: 'MULTICAST',
          })
        ).status,
      ).toBe(200);
    // Sent to the address, a message reaches every queue bound to it.
    const sent = await request(operator, 'POST', `addresses/${address}/messages`, { body: 'to all' });
    expect(BrokerChangeResultSchema.parse(await sent.json())).toEqual(
      expect.objectContaining({ kind: 'send-to-address', target: address }),
    );
    for (const sub of ['sub', 'sub2']) {
      const depth = await jolokia({
        type: 'read',
        mbean: `org.apache.activemq.artemis:broker="${broker.nodes[0].name}",component=addresses,address="${address}",subcomponent=queues,routing-type="multicast",queue="${address}.${sub}"`,
        attribute: 'MessageCount',
      });
      expect(depth.value).toBe(1);
    }
    expect(
      await errorOf(await request(operator, 'POST', `addresses/${address}.none/messages`, { body: 'x' })),
    ).toEqual({ status: 404, code: 'NOT_ON_BROKER' });
    expect(await errorOf(await request(admin, 'DELETE', `addresses/${address}`))).toEqual({
      status: 409,
      code: 'BROKER_REFUSED',
    });
    expect((await request(admin, 'DELETE', `addresses/${address}?removeQueues=true`)).status).toBe(200);
    const gone = await jolokia({
      type: 'read',
      mbean: `org.apache.activemq.artemis:broker="${broker.nodes[0].name}",component=addresses,address="${address}"`,
      attribute: 'RoutingTypes',
    });
    expect(gone.status).toBe(404);
  });
});
