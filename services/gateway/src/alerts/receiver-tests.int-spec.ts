import { DeliveryListSchema, DeliverySchema, ReceiverSchema, type Delivery } from '@artemis-studio/contracts';
import {
  brokerProfile,
  registerLiveBroker,
  signIn,
  spawnService,
  startAlertmanager,
  testConfig,
  waitFor,
  type ApiSession,
  type ServiceProcess,
  type TestAlertmanager,
} from '@artemis-studio/testing';
import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const json = (method: string, body?: unknown): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

/**
 * A receiver's test notification (issue 61): asked of the gateway, owed in the delivery log, sent by
 * the cluster's owner through the receiver's own channel to a real Alertmanager and a signed webhook.
 */
describe("a receiver's test notification, through the real path", () => {
  let gateway: ServiceProcess;
  let scraper: ServiceProcess;
  let admin: ApiSession;
  let alertmanager: TestAlertmanager;
  let hooks: Server;
  const heard: { headers: IncomingHttpHeaders; body: string }[] = [];
  let clusterId: string;
  const url = (path: string) => `${gateway.url}/api/v1/clusters/${clusterId}/${path}`;

  beforeAll(async () => {
    alertmanager = await startAlertmanager();
    hooks = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        heard.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
    gateway = await spawnService('gateway', 18600);
    scraper = await spawnService('scraper', 18601);
    admin = await signIn(gateway.url);
    const broker = await brokerProfile(testConfig.brokerProfile);
    clusterId = await registerLiveBroker(gateway.url, admin, broker, {
      name: `receiver-tests-${randomUUID().slice(0, 8)}`,
    });
  }, 120_000);

  afterAll(async () => {
    await admin
      ?.fetch(`${gateway.url}/api/v1/clusters/${clusterId}`, { method: 'DELETE' })
      .catch(() => undefined);
    await Promise.all([gateway?.stop(), scraper?.stop(), alertmanager?.stop()]);
    await new Promise((resolve) => hooks?.close(resolve));
  });

  const receiver = async (body: Record<string, unknown>) => {
    const made = await admin.fetch(url('alert-receivers'), json('POST', { minSeverity: 'info', ...body }));
    expect(made.status).toBe(201);
    return ReceiverSchema.parse(await made.json());
  };
  const test = async (id: string): Promise<Delivery> => {
    const asked = await admin.fetch(url(`alert-receivers/${id}/test`), json('POST'));
    expect(asked.status).toBe(202);
    return DeliverySchema.parse(await asked.json());
  };
  /** The delivery as the log shows it, once the owner has settled it. */
  const settled = async (id: string): Promise<Delivery> => {
    let found: Delivery | undefined;
    await waitFor(`delivery ${id} to settle`, async () => {
      const log = DeliveryListSchema.parse(await (await admin.fetch(url('alert-deliveries'))).json());
      found = log.items.find((d) => d.id === id);
      return found !== undefined && found.status !== 'pending';
    });
    return found!;
  };

  it('reaches Alertmanager as a test, labelled so no route takes it for a real alert, and is logged', async () => {
    const am = await receiver({ name: 'am', kind: 'alertmanager', url: alertmanager.url });
    const owed = await test(am.id);
    expect(owed).toMatchObject({ transition: 'test', status: 'pending', alertId: null, receiverName: 'am' });
    expect(await settled(owed.id)).toMatchObject({ status: 'delivered', attempts: 1, lastError: null });
    const held = (await alertmanager.alerts()).find((a) => a.labels.alertname === 'Studio test notification');
    expect(held?.labels).toMatchObject({ kind: 'test', test: 'true', severity: 'info' });
    expect(held?.labels.node).toBeUndefined();
  });

  it('reaches a signed webhook as a test transition, and a receiver that cannot be reached says why', async () => {
    const secret = 'a-signing-secret';
    const hook = await receiver({
      name: 'hook',
      kind: 'webhook',
      url: `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/studio`,
      secret,
    });
    const owed = await test(hook.id);
    expect(await settled(owed.id)).toMatchObject({ status: 'delivered' });
    const post = heard.find((h) => h.headers['x-studio-delivery'] === owed.id)!;
    const body = JSON.parse(post.body) as { transition: string; alert: { description: string } };
    expect(body.transition).toBe('test');
    expect(body.alert.description).toMatch(/nothing is wrong/);
    const signed = createHmac('sha256', secret)
      .update(`${String(post.headers['x-studio-timestamp'])}.${post.body}`)
      .digest('hex');
    expect(post.headers['x-studio-signature']).toBe(`v1=${signed}`);

    // A port just let go of: nothing listens there. Tried once, failed, and the log says why.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const gone = await receiver({
      name: 'gone',
      kind: 'webhook',
      url: `http://127.0.0.1:${port}/none`,
      secret,
    });
    const failed = await settled((await test(gone.id)).id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1 });
    expect(failed.lastError).toMatch(/ECONNREFUSED/);
  });

  it('refuses a receiver that is turned off, and one of another cluster', async () => {
    const off = await receiver({ name: 'off', kind: 'alertmanager', url: alertmanager.url });
    expect(
      (await admin.fetch(url(`alert-receivers/${off.id}`), json('PUT', { name: 'off', enabled: false })))
        .status,
    ).toBe(200);
    expect((await admin.fetch(url(`alert-receivers/${off.id}/test`), json('POST'))).status).toBe(409);
    expect((await admin.fetch(url(`alert-receivers/${randomUUID()}/test`), json('POST'))).status).toBe(404);
  });
});
