import type { TypedKv } from '@artemis-studio/bus';
import { kindsOfScope, leaseKey, type Lease } from '@artemis-studio/contracts';
import { rowsOf } from '@artemis-studio/db';
import type { DataSource } from 'typeorm';
import type { PollingFacts } from '../rules/polling-reading';

/** What every scraper replica reads for the fleet's rule: who holds each cluster, when it was polled. */
export class FleetFactsQueries {
  constructor(
    private readonly db: Pick<DataSource, 'query'>,
    private readonly leases: Pick<TypedKv<Lease>, 'get'>,
  ) {}

  /** The clusters with a fleet rule in force, or retired with an alert still open. */
  watched(): Promise<{ id: string; name: string }[]> {
    return rowsOf<{ id: string; name: string }>(
      this.db,
      `SELECT c.id, c.name FROM cluster c
        WHERE EXISTS (SELECT 1 FROM alert_rule r
                       WHERE r.cluster_id = c.id AND r.kind = ANY ($1::text[])
                         AND ((r.enabled AND r.deleted_at IS NULL)
                              OR EXISTS (SELECT 1 FROM alert a WHERE a.rule_id = r.id AND a.state <> 'resolved')))
        ORDER BY c.name`,
      [kindsOfScope('fleet')],
    );
  }

  /** Each cluster's scraper lease (an expired one is nobody's) and its nodes' last tier-A observation. */
  async of(clusterIds: readonly string[], now: Date): Promise<Map<string, PollingFacts>> {
    const polled = await rowsOf<{ cluster_id: string; at: Date }>(
      this.db,
      `SELECT cluster_id, max(observed_at) AS at FROM node_state WHERE cluster_id = ANY ($1::uuid[]) GROUP BY cluster_id`,
      [clusterIds],
    );
    const lastPolledAt = new Map(polled.map((r) => [r.cluster_id, r.at]));
    const facts = new Map<string, PollingFacts>();
    for (const id of clusterIds) {
      const lease = await this.leases.get(leaseKey('scraper', id));
      facts.set(id, {
        owned: lease !== null && Date.parse(lease.value.expiresAt) > now.getTime(),
        lastPolledAt: lastPolledAt.get(id) ?? null,
      });
    }
    return facts;
  }
}
