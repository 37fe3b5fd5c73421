import { createDataSource } from '@artemis-studio/db';
import { insertCluster, testDatabaseUrl } from '@artemis-studio/testing';
import type { DataSource } from 'typeorm';
import { observedQueue } from './queue-observation.fixture';
import { QueueSnapshotRepository } from './queue-snapshot.repository';

export const queue = (name: string, messageCount = 0) =>
  observedQueue(name, { messageCount, messagesAdded: messageCount });

/** A cluster of one node nobody polls: these tests write its snapshots themselves. */
export const oneNodeCluster = { nodes: [{ name: 'n', jolokiaUrl: 'http://127.0.0.1:1/console/jolokia' }] };

/** A cluster of one node nobody polls, and the repository writing its snapshots, on real PostgreSQL. */
export class SnapshotStack {
  db!: DataSource;
  sut!: QueueSnapshotRepository;
  cluster!: { id: string; nodeIds: string[] };

  async start(): Promise<void> {
    this.db = await createDataSource({ url: testDatabaseUrl(), poolSize: 4 }).initialize();
    this.sut = new QueueSnapshotRepository({ whenReady: async () => this.db });
    this.cluster = await insertCluster(this.db, oneNodeCluster);
  }

  async stop(): Promise<void> {
    await this.db.destroy();
  }
}
