import type { TypedKv } from '@artemis-studio/bus';
import {
  UNOBSERVED_EVENT_TYPE,
  leaseKey,
  unobservedPeriod,
  type CapabilityVerdict,
  type Lease,
  type RawBrokerEvent,
} from '@artemis-studio/contracts';
import { rowsOf } from '@artemis-studio/db';
import type { DataSource } from 'typeorm';
import type { StudioFacts } from '../rules/conditions';

/**
 * What Studio knows of its own observation of a cluster, for the Studio rules: the notifier's
 * verdict and lease from the bus's buckets, the lost events from the event store's counters, the
 * last unobserved period from the history (the event store's tables, read only), and the redrives
 * their return guard paused (`message_job`).
 */
export class StudioFactsQueries {
  constructor(
    private readonly db: Pick<DataSource, 'query'>,
    private readonly capabilities: Pick<TypedKv<CapabilityVerdict>, 'get'>,
    private readonly leases: Pick<TypedKv<Lease>, 'get'>,
  ) {}

  async of(clusterId: string, now = new Date()): Promise<StudioFacts> {
    const [verdict, lease, [drops], [unobserved], [paused]] = await Promise.all([
      this.capabilities.get(clusterId),
      this.leases.get(leaseKey('notifier', clusterId)),
      rowsOf<{ dropped: string | null; last_at: Date | null }>(
        this.db,
        `SELECT sum(dropped) AS dropped, max(last_at) AS last_at FROM event_drop_counter
          WHERE cluster_id = $1 AND dropped > 0`,
        [clusterId],
      ),
      // The newest by the (cluster_id, type, seq) index: one row, however long the history.
      rowsOf<{ type: string; props: RawBrokerEvent['props'] }>(
        this.db,
        `SELECT type, props FROM broker_event WHERE cluster_id = $1 AND type = $2 ORDER BY seq DESC LIMIT 1`,
        [clusterId, UNOBSERVED_EVENT_TYPE],
      ),
      rowsOf<{ paused: string; last_at: Date | null }>(
        this.db,
        `SELECT count(*) AS paused, max(finished_at) AS last_at FROM message_job
          WHERE cluster_id = $1 AND status = 'paused'`,
        [clusterId],
      ),
    ]);
    const period = unobserved ? unobservedPeriod(unobserved) : null;
    return {
      notifications: verdict?.value.status ?? null,
      dropped: Number(drops?.dropped ?? 0),
      lastDropAt: drops?.last_at ?? null,
      // An expired lease is no owner: its replica stopped renewing, and none took it over yet.
      notifierOwned: lease !== null && Date.parse(lease.value.expiresAt) > now.getTime(),
      lastUnobserved: period && {
        until: new Date(period.until),
        seconds: period.from ? (Date.parse(period.until) - Date.parse(period.from)) / 1000 : null,
      },
      redrivesPaused: Number(paused?.paused ?? 0),
      lastRedrivePausedAt: paused?.last_at ?? null,
    };
  }
}
