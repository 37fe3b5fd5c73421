import { DatabaseService } from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';
import { GrantRepository } from './grant.repository';
import { UserRepository } from './user.repository';

/** The first admin's rows: `admin` and its grant of admin on every cluster. */
@Injectable()
export class FirstAdminRepository {
  constructor(
    private readonly database: DatabaseService,
    private readonly users: UserRepository,
    private readonly grants: GrantRepository,
  ) {}

  /**
   * Made only while no user exists at all, and says whether it was: two replicas starting
   * together create one (the advisory lock orders them; the second finds a user and does nothing).
   */
  async createWhileNoUser(passwordHash: string): Promise<boolean> {
    return this.database.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('artemis-studio.first-admin'))`);
      if ((await this.users.count(tx)) > 0) return false;
      const admin = await this.users.create(tx, { username: 'admin', kind: 'local', passwordHash });
      await this.grants.create(tx, { subjectKind: 'user', subject: admin.id, role: 'admin', clusters: '*' });
      return true;
    });
  }
}
