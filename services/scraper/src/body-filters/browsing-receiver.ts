import {
  ReceiverEvents,
  filter,
  type Connection,
  type EventContext,
  type Message,
  type Receiver,
} from 'rhea-promise';
import type { AmqpEndpoint } from '../cluster-parts/owned-cluster';
import { openAmqpConnection } from '../broker-actions/amqp-send';

/** How long one part may take to arrive before the export is given up. */
const PART_TIMEOUT_MS = 30_000;

/**
 * A queue read once from its head to its end, as a browser: an AMQP 1.0 receiver in `copy`
 * distribution mode (Artemis' browse: nothing is taken, paged messages included), with the
 * broker's own selector. Each part is asked for with drain, so the broker answers with what it
 * has, and an empty part is the end: no page re-read per page, as a management `browse` does.
 */
export class BrowsingReceiver {
  private constructor(
    private readonly connection: Connection,
    private readonly receiver: Receiver,
  ) {}

  /** `fqqn`: the queue as `address::queue`, so only that queue is read whatever else its address holds. */
  static async open(endpoint: AmqpEndpoint, fqqn: string, selector: string): Promise<BrowsingReceiver> {
    const connection = await openAmqpConnection(endpoint, PART_TIMEOUT_MS / 1000);
    try {
      const receiver = await connection.createReceiver({
        source: {
          address: fqqn,
          distribution_mode: 'copy',
          ...(selector ? { filter: filter.selector(selector) } : {}),
        },
        credit_window: 0,
        autoaccept: true,
      });
      return new BrowsingReceiver(connection, receiver);
    } catch (err) {
      await connection.close().catch(() => undefined);
      throw err;
    }
  }

  /** The next messages, at most `max`; fewer once the queue's end is reached. */
  next(max: number): Promise<Message[]> {
    const { receiver } = this;
    return new Promise<Message[]>((resolve, reject) => {
      const got: Message[] = [];
      // A part the broker fills uses up the credit, and the broker may then send no drained flow.
      const onMessage = (context: EventContext) => {
        if (context.message) got.push(context.message);
        if (got.length >= max) finish(() => resolve(got));
      };
      const onDrained = () => finish(() => resolve(got));
      const onError = (context: EventContext) =>
        finish(() => reject(new Error(context.receiver?.error?.toString() ?? 'the browsing link failed')));
      const timer = setTimeout(
        () => finish(() => reject(new Error(`the broker sent no part within ${PART_TIMEOUT_MS} ms`))),
        PART_TIMEOUT_MS,
      );
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        receiver.removeListener(ReceiverEvents.message, onMessage);
        receiver.removeListener(ReceiverEvents.receiverDrained, onDrained);
        receiver.removeListener(ReceiverEvents.receiverError, onError);
        settle();
      };
      receiver.on(ReceiverEvents.message, onMessage);
      receiver.on(ReceiverEvents.receiverDrained, onDrained);
      receiver.on(ReceiverEvents.receiverError, onError);
      receiver.drain = true;
      receiver.addCredit(max);
    });
  }

  async close(): Promise<void> {
    await this.connection.close().catch(() => undefined);
  }
}
