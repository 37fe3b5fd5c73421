import { z } from 'zod';
import { Instant, Uuid } from '../common';

/**
 * Where every broker sends its management notifications: the notifier subscribes there, and the
 * scraper keeps Studio's ring on it (ADR-0015).
 */
export const NOTIFICATION_ADDRESS = 'activemq.notifications';

const LiveNodeSchema = z.object({
  name: z.string().min(1),
  jolokiaUrl: z.url(),
  /** Null when the node has no dialable AMQP URL: the notifier states that as a capability gap. */
  amqpUrl: z.url().nullable(),
  /**
   * Studio's durable ring of notifications on this node (ADR-0015), when the scraper has seen it
   * there with its bound: the notifier consumes it instead of a subscription of its own. Absent:
   * subscribe non-durably.
   */
  ring: z
    .object({
      /** The queue on `activemq.notifications`. */
      queue: z.string().min(1),
      /** The most notifications it keeps; the oldest go first. */
      size: z.number().int().positive(),
      /**
       * Since when it has held every notification continuously: its creation, or the broker's
       * start if later (notifications are not persistent, so a restart empties it).
       */
      since: Instant,
      /** Where the count of its discards stands: reported as drops up to here, counted on from here. */
      discarded: z.number().int().nonnegative(),
    })
    .optional(),
  /** Why the node has no ring (turned off, or the broker refused to make it), when it has none. */
  noRing: z.string().max(1000).optional(),
});
export type LiveNode = z.infer<typeof LiveNodeSchema>;

/** Value of `studio_live_nodes[<clusterId>]`: who is live now, as the brokers said at `asOf`. */
export const LiveNodeSetSchema = z.object({
  clusterId: Uuid,
  asOf: Instant,
  nodes: z.array(LiveNodeSchema),
  /**
   * Registered nodes last seen live that no longer answer, whose broker no live node serves now (no
   * backup took over): a cluster member down, or one Studio cannot reach while it may serve clients.
   * What they send is not observed until they answer again: the notifier states it. `since`: when
   * each last answered. Absent from older scrapers: none.
   */
  unseen: z.array(z.object({ name: z.string().min(1), since: Instant.nullable() })).optional(),
});
export type LiveNodeSet = z.infer<typeof LiveNodeSetSchema>;
