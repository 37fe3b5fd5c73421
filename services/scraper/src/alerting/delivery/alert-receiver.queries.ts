import { rowsOf, type SecretVault } from '@artemis-studio/db';
import type { DataSource } from 'typeorm';
import type { ReceiverTarget } from './channels/alert-channel';

/**
 * A cluster's enabled receivers as the courier sends to them (`alert_receiver`, which the gateway
 * writes), their sealed secrets opened here and nowhere else in the scraper.
 */
export class AlertReceiverQueries {
  constructor(
    private readonly db: Pick<DataSource, 'query'>,
    private readonly vault: SecretVault,
  ) {}

  async enabled(clusterId: string, ids: readonly string[]): Promise<Map<string, ReceiverTarget>> {
    const rows = await rowsOf<Omit<ReceiverTarget, 'secret'> & { sealed: Buffer | null }>(
      this.db,
      `SELECT id, kind, url, email, sealed_secret AS sealed FROM alert_receiver
        WHERE cluster_id = $1 AND enabled AND id = ANY ($2::uuid[])`,
      [clusterId, [...new Set(ids)]],
    );
    return new Map(
      rows.map(({ sealed, ...r }) => [
        r.id,
        { ...r, secret: sealed && this.vault.open(sealed, r.id, 'RECEIVER') },
      ]),
    );
  }
}
