import { createServer, type Server, type Socket } from 'node:net';
import { CreditGate } from '../publishing/credit-gate';
import { NotificationSimulator, TcpProxy } from '@artemis-studio/testing';
import { CLOSE_WAIT_MS, IDLE_TIMEOUT_MS, NotificationSubscription } from './notification-subscription';

/** A peer that takes the TCP connection and never says a word of AMQP: a broker still starting. */
async function silentPeer(): Promise<{ server: Server; port: number; sockets: Socket[] }> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { server, port: address.port, sockets };
}

/** A subscription to the node at `port` that records the states it goes through. */
function subscriptionTo(
  name: string,
  port: number,
): { subscription: NotificationSubscription; states: string[] } {
  const states: string[] = [];
  const subscription = new NotificationSubscription({
    node: { name, amqpUrl: `amqp://127.0.0.1:${port}` },
    credential: undefined,
    containerId: 'test',
    creditWindow: 10,
    gate: new CreditGate({ capacity: 10, holdLimitMs: 60_000 }),
    idleTimeoutMs: IDLE_TIMEOUT_MS,
    onNotification: () => undefined,
    onState: (state) => states.push(state.state),
  });
  return { subscription, states };
}

describe('NotificationSubscription', () => {
  it('stops at once while its connect is still unanswered, not after the operation timeout', async () => {
    const peer = await silentPeer();
    const { subscription, states } = subscriptionTo('starting', peer.port);
    try {
      subscription.start();
      while (peer.sockets.length === 0) await new Promise((r) => setTimeout(r, 10));
      const stopping = Date.now();
      await subscription.stop();
      // The connect's own timeout is 10 s, and a close of a connection never opened waits 5 s more:
      // a stop that waited for either would hold a notifier's shutdown past its handover.
      expect(Date.now() - stopping).toBeLessThan(3000);
      expect(states).toEqual(['connecting']);
    } finally {
      peer.sockets.forEach((s) => s.destroy());
      await new Promise((r) => peer.server.close(r));
    }
  }, 30_000);
  it('stops within the close wait when its broker stops answering, not when the line times out', async () => {
    // A broker that froze (a paused container, a partition) never answers the close: the
    // connection stays open until the idle timeout gives it up, 30 s later, past a container's
    // stop grace period. Seen as the notifier killed at compose stop (exit 137 after 31 s).
    const broker = await NotificationSimulator.start({ clusters: [{ queues: 1 }], perSecond: 0 });
    const line = await TcpProxy.start('127.0.0.1', Number(new URL(broker.amqpUrl(0)).port));
    const { subscription, states } = subscriptionTo('frozen', line.port);
    try {
      subscription.start();
      while (!states.includes('subscribed')) await new Promise((r) => setTimeout(r, 10));
      line.silence();
      const stopping = Date.now();
      await subscription.stop();
      expect(Date.now() - stopping).toBeLessThan(CLOSE_WAIT_MS + 2000);
      expect(states).toEqual(['connecting', 'subscribed']);
    } finally {
      await line.stop();
      await broker.stop();
    }
  }, 45_000);
});
