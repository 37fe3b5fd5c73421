import { DatabaseService } from '@artemis-studio/platform';
import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { GATEWAY_CONFIG, type AccessConfig, type GatewayConfig } from '../gateway.config';
import { GrantRepository } from './grant.repository';
import { generatedPassword, hashPassword } from './secrets';
import { UserRepository } from './user.repository';

/**
 * The first admin, `admin`, created once while no user exists, with STUDIO_ADMIN_PASSWORD or, when
 * that is unset, a generated password printed once: the only secret this service ever logs, so an
 * install without an identity provider can be signed in to at all. Change it after first use.
 */
@Injectable()
export class FirstAdmin implements OnApplicationBootstrap {
  private readonly logger = new Logger('Access');
  private readonly access: AccessConfig;
  private resolveSettled!: () => void;
  /** Resolves once the first admin exists (or already did): sign-in waits on it after a fresh install. */
  readonly settled = new Promise<void>((resolve) => (this.resolveSettled = resolve));

  constructor(
    private readonly database: DatabaseService,
    private readonly users: UserRepository,
    private readonly grants: GrantRepository,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.access = config.access;
  }

  onApplicationBootstrap(): void {
    void this.database.whenReady().then(() => this.ensure());
  }

  private async ensure(): Promise<void> {
    try {
      const password = this.access.adminPassword ?? generatedPassword();
      if (await this.create(await hashPassword(password))) {
        if (this.access.adminPassword)
          this.logger.log('first admin "admin" created with STUDIO_ADMIN_PASSWORD');
        else
          this.logger.warn(
            `first admin created: sign in as "admin" with password ${password} (shown once; change it, or set STUDIO_ADMIN_PASSWORD before the first start)`,
          );
      }
    } catch (err) {
      this.logger.error(`the first admin could not be created: ${(err as Error).message}`);
    } finally {
      this.resolveSettled();
    }
  }

  /**
   * The first admin, only while no user exists at all: two replicas starting together create one
   * (the advisory lock orders them; the second finds a user and does nothing).
   */
  private async create(passwordHash: string): Promise<boolean> {
    return this.database.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('artemis-studio.first-admin'))`);
      if ((await this.users.count(tx)) > 0) return false;
      const admin = await this.users.create(tx, { username: 'admin', kind: 'local', passwordHash });
      await this.grants.create(tx, { subjectKind: 'user', subject: admin.id, role: 'admin', clusters: '*' });
      return true;
    });
  }
}
