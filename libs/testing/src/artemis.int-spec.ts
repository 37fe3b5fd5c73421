import axios from 'axios';
import { randomUUID } from 'node:crypto';
import { ReceiverEvents, type Connection, type EventContext } from 'rhea-promise';
import { openAmqpClient } from './amqp';
import { brokerProfile, type BrokerProfile } from './broker';
import { testConfig } from './config';
import { waitFor } from './wait';

/** Smoke tests of the real broker that scripts/artemis.sh provisions. */
describe('the test broker', () => {
  let broker: BrokerProfile;
  const connections: Connection[] = [];

  beforeAll(async () => {
    broker = await brokerProfile(testConfig.brokerProfile);
  });

  afterAll(async () => {
    await Promise.all(connections.map((c) => c.close().catch(() => undefined)));
  });

  async function amqp(user: string, password: string): Promise<Connection> {
    const connection = await openAmqpClient(broker.nodes[0].amqpUrl, user, password);
    connections.push(connection);
    return connection;
  }

  describe('Jolokia', () => {
    const read = (headers: Record<string, string>) =>
      axios.post(
        broker.nodes[0].jolokiaUrl,
        {
          type: 'read',
          mbean: `org.apache.activemq.artemis:broker="${broker.nodes[0].name}"`,
          attribute: 'Version',
        },
        { auth: { username: broker.user, password: broker.password }, headers, validateStatus: () => true },
      );

    it('reads the broker Version with an Origin that passes strict checking', async () => {
      const response = await read({ Origin: 'http://127.0.0.1' });
      expect(response.status).toBe(200);
      expect(response.data).toMatchObject({ status: 200, value: '2.40.0' });
    });

    it('keeps strict Origin checking: a foreign Origin is refused in the JSON status', async () => {
      const response = await read({ Origin: 'http://evil.example' });
      expect(response.data).toMatchObject({ status: 403 });
    });
  });

  describe('AMQP 1.0 notifications', () => {
    it('delivers CONSUMER_CREATED with its _AMQ_* properties when another client attaches a receiver', async () => {
      const queue = `smoke.${randomUUID()}`;
      const received: Record<string, unknown>[] = [];
      const subscriber = await amqp(broker.user, broker.password);
      const notifications = await subscriber.createReceiver({
        source: { address: 'activemq.notifications' },
        credit_window: 100,
      });
      notifications.on(ReceiverEvents.message, (context: EventContext) => {
        received.push(context.message?.application_properties ?? {});
      });

      const client = await amqp(broker.user, broker.password);
      await client.createReceiver({ source: { address: queue, capabilities: ['queue'] } });

      const created = await waitFor('CONSUMER_CREATED for the queue', () =>
        received.find((p) => p._AMQ_NotifType === 'CONSUMER_CREATED' && p._AMQ_RoutingName === queue),
      );
      expect(created).toMatchObject({
        _AMQ_Address: queue,
        _AMQ_Distance: 0,
        _AMQ_User: broker.user,
        _AMQ_ConsumerCount: 1,
      });
      expect(typeof created._AMQ_NotifTimestamp).toBe('number');
      expect(created._AMQ_RemoteAddress).toEqual(expect.stringContaining('127.0.0.1'));
      expect(created._AMQ_SessionName).toEqual(expect.any(String));
    });

    it('refuses the notification subscription to a user without the permissions', async () => {
      const observer = await amqp(broker.observer.user, broker.observer.password);
      // Artemis answers the attach with a null source and then detaches with the reason: the
      // promise resolves, and only the closed link tells the refusal apart.
      const receiver = await observer.createReceiver({ source: { address: 'activemq.notifications' } });
      await waitFor('the broker to detach the refused link', () => !receiver.isOpen());
      expect(JSON.stringify(receiver.error)).toMatch(/AMQ229213.*CREATE_NON_DURABLE_QUEUE/);
    });
  });
});
