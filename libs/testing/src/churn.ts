import type { RawBrokerEvent } from '@artemis-studio/contracts';
import type { Connection } from 'rhea-promise';
import { waitFor } from './wait';

export interface ConsumerChurn {
  /** Consumer notifications caused so far: two per receiver the broker acknowledged opening and closing. */
  caused(): number;
  /** Resolves once `more` notifications past now have been caused. */
  goOn(more: number): Promise<unknown>;
  stop(): Promise<void>;
}

/**
 * Keeps the broker notifying: a receiver attached to `queue` and closed, again and again, until
 * stopped. What a fault test counts against what was stored.
 */
export function churnConsumers(client: Connection, queue: string): ConsumerChurn {
  const state = { running: true, caused: 0 };
  const done = (async () => {
    while (state.running) {
      const receiver = await client.createReceiver({ source: { address: queue, capabilities: ['queue'] } });
      await receiver.close();
      state.caused += 2;
    }
  })();
  return {
    caused: () => state.caused,
    goOn: (more) => {
      const until = state.caused + more;
      return waitFor('the churn to go on', () => state.caused >= until, { timeoutMs: 30_000 });
    },
    stop: async () => {
      state.running = false;
      await done;
    },
  };
}

/** The consumer notifications of `queue` among `events`, once every caused one has arrived (or 20 s). */
export async function consumerEventsOf(
  events: RawBrokerEvent[],
  queue: string,
  caused: number,
): Promise<RawBrokerEvent[]> {
  const ofQueue = () => events.filter((e) => e.queue === queue && e.type.startsWith('CONSUMER_'));
  await waitFor('every notification on the stream', () => ofQueue().length >= caused, {
    timeoutMs: 20_000,
  }).catch(() => undefined);
  return ofQueue();
}
