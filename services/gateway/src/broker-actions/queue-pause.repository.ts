import { changeOf } from '@artemis-studio/db';
import { DatabaseService } from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';

/**
 * `queue_pause`: the pauses made through Studio, and whether each survives a broker restart. Kept
 * because the broker (2.40) has no attribute for it; shown beside the queue's `paused` state.
 */
@Injectable()
export class QueuePauseRepository {
  constructor(private readonly database: DatabaseService) {}

  async paused(clusterId: string, queue: string, persist: boolean, by: string | null): Promise<void> {
    await changeOf(
      await this.database.forRequest(),
      `INSERT INTO queue_pause (cluster_id, queue, persist, paused_by) VALUES ($1, $2, $3, $4)
       ON CONFLICT (cluster_id, queue) DO UPDATE SET persist = $3, paused_by = $4, paused_at = now()`,
      [clusterId, queue, persist, by],
    );
  }

  /** Resumed, or deleted: no pause of Studio's stands. */
  async ended(clusterId: string, queue: string): Promise<void> {
    await changeOf(
      await this.database.forRequest(),
      `DELETE FROM queue_pause WHERE cluster_id = $1 AND queue = $2`,
      [clusterId, queue],
    );
  }
}
