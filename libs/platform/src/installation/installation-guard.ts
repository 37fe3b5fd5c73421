import type { Bus, TypedKv } from '@artemis-studio/bus';
import { buckets, memberKey, type Member } from '@artemis-studio/contracts';
import { InstallationQueries } from '@artemis-studio/db';
import { sleep } from '@artemis-studio/timing';
import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { BUS } from '../bus/bus.provider';
import { SERVICE_CONFIG, type ServiceConfig } from '../config/service-config';
import { DatabaseService } from '../database/database.service';
import type { ReadinessCheck } from '../health/readiness';
import { installationsBesides, presenceService, renewedSince, type OtherInstallation } from './installations';

/** How long a presence lasts unrenewed, and how often it is renewed. */
const PRESENCE_TTL_MS = 15_000;
const BEAT_MS = 5_000;

class InstallationConflictError extends Error {
  override name = 'InstallationConflictError';
}

/**
 * One installation of Studio per NATS account (ADR-0031). Every service says it is present in
 * `studio_members` under its installation (its database's id); one that finds another
 * installation present there (beyond a presence that lapses within its TTL: a process killed a
 * moment ago) refuses to start, naming both, before it joins a consumer or a lease. Two Studios
 * on one account would otherwise share the event store's durable consumer and its RPCs, and each
 * would store half of the other's events without a word.
 */
@Injectable()
export class InstallationGuard
  implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown, ReadinessCheck
{
  readonly name = 'installation';
  private claimed = false;
  private readonly logger = new Logger('Installation');
  private readonly replica = randomUUID().slice(0, 8);
  private readonly stopping = new AbortController();
  private kv?: TypedKv<Member>;
  private key?: string;
  private beating?: NodeJS.Timeout;
  private resolveAlone!: (installation: string) => void;
  /** Resolves with this installation's id once no other is present on its NATS. */
  private readonly alone = new Promise<string>((resolve) => (this.resolveAlone = resolve));

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
    private readonly database: DatabaseService,
  ) {}

  /** Ready once this installation is known to be alone on its NATS. */
  async check(): Promise<{ ok: boolean; detail: string }> {
    return this.claimed
      ? { ok: true, detail: 'alone on its NATS' }
      : { ok: false, detail: 'checking that no other installation of Studio uses this NATS' };
  }

  /** Resolves with this installation's id once it is alone on its NATS; never, if it is not. */
  whenAlone(): Promise<string> {
    return this.alone;
  }

  onApplicationBootstrap(): void {
    void this.claimUntilDone();
  }

  /**
   * Leaves before the application's shutdown hooks run: the bus closes in one of them, at the same
   * time as this one's, and the presence then stayed behind for its TTL, so that a stack started
   * right after a stop waited it out or, seeing several such entries, was refused.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    clearInterval(this.beating);
    if (this.kv && this.key && this.bus.state === 'connected')
      await this.kv.delete(this.key).catch(() => undefined);
  }

  onApplicationShutdown(): void {
    // Stopped without the hook above (a test module closed in part): nothing beats on.
    this.stopping.abort();
    clearInterval(this.beating);
  }

  /**
   * Claims until it can tell: a conflict ends the process (a refusal to start, which an
   * orchestrator shows and restarts to the same end); anything else (the database or NATS not
   * there yet, or gone while it asked) is asked again, and readiness waits meanwhile.
   */
  private async claimUntilDone(): Promise<void> {
    while (!this.stopping.signal.aborted) {
      try {
        await this.claim();
        return;
      } catch (err) {
        if (err instanceof InstallationConflictError) {
          this.logger.error(err.message);
          process.exit(1);
        }
        if (this.stopping.signal.aborted) return;
        this.logger.warn(`could not check for other installations yet: ${(err as Error).message}`);
        await sleep(BEAT_MS, this.stopping.signal);
      }
    }
  }

  private async claim(): Promise<void> {
    const installation = await new InstallationQueries(await this.database.whenReady()).id();
    await this.bus.ready();
    const kv = await this.bus.kv(buckets.members);
    const others = await this.waitOut(kv, installation);
    if (others.length > 0) throw new InstallationConflictError(conflict(installation, this.where(), others));
    if (this.stopping.signal.aborted) return;
    this.kv = kv;
    this.key = memberKey(presenceService(this.config.service), installation, this.replica);
    await this.beat();
    this.beating = setInterval(() => void this.beat().catch(() => undefined), BEAT_MS);
    this.beating.unref();
    this.claimed = true;
    this.resolveAlone(installation);
  }

  /**
   * The other installations present. One that renews its entries is running: refused at once,
   * after one beat of watching. One that does not is a process killed or cut off a moment ago:
   * waited out, as its entries lapse within their TTL.
   */
  private async waitOut(kv: TypedKv<Member>, installation: string): Promise<OtherInstallation[]> {
    const until = Date.now() + PRESENCE_TTL_MS + BEAT_MS;
    let others = await installationsBesides(kv, installation, Date.now());
    while (others.length > 0 && Date.now() < until) {
      this.logger.warn(
        `another installation of Studio (${others.map((o) => o.installation).join(', ')}) is present on this NATS; watching whether it is running or lapsing (up to ${Math.round((until - Date.now()) / 1000)} s)`,
      );
      await sleep(Math.min(BEAT_MS + 1000, Math.max(0, until - Date.now())));
      const now = await installationsBesides(kv, installation, Date.now());
      if (renewedSince(others, now)) return now;
      others = now;
    }
    return others;
  }

  private async beat(): Promise<void> {
    const now = Date.now();
    await this.kv!.put(this.key!, {
      replica: `${this.config.service}-${this.replica}`,
      joinedAt: new Date(now).toISOString(),
      expiresAt: new Date(now + PRESENCE_TTL_MS).toISOString(),
      database: this.where(),
    });
  }

  /** This installation's database, as host and name: never a user or a password. */
  private where(): string {
    const url = new URL(this.config.databaseUrl);
    return `${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`;
  }
}

function conflict(installation: string, database: string, others: OtherInstallation[]): string {
  const named = others
    .map(
      (o) =>
        `installation ${o.installation}${o.database ? ` (database ${o.database})` : ''}, with ${o.services.join(', ')}`,
    )
    .join('; ');
  return (
    `refusing to start: this NATS account is used by another installation of Studio: ${named}. ` +
    `This is installation ${installation} (database ${database}). Two installations on one account ` +
    `would share the event store's consumer and split each other's events. Give each installation ` +
    `its own NATS account or server (docs/operations.md, "Several installations on one NATS"), or ` +
    `point this one at the database of the installation already there.`
  );
}
