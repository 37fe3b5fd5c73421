import { DatabaseService } from '@artemis-studio/platform';
import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { GATEWAY_CONFIG, type AccessConfig, type GatewayConfig } from '../gateway.config';
import { FirstAdminRepository } from './first-admin.repository';
import { generatedPassword, hashPassword } from './secrets';

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
    private readonly rows: FirstAdminRepository,
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
      if (await this.rows.createWhileNoUser(await hashPassword(password))) {
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
}
