import { firstRow } from '@artemis-studio/db';
import { DatabaseService } from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';
import { DomainError } from '../domain-error';

/** Failed sign-ins allowed per minute for one username, and from one address (an office behind NAT). */
const SIGN_IN_LIMITS = { perUser: 10, perAddress: 50, windowSeconds: 60 } as const;

/**
 * Refuses a sign-in (or a password change, which also tries a password) once too many recent
 * password guesses failed. Only wrong passwords count: a malformed request guesses nothing, and
 * counting the refusals themselves would let anyone keep a name or an office's address locked out
 * for as long as they keep trying. Counted from the audit trail itself: the
 * count is the same on every replica, and survives a restart.
 */
@Injectable()
export class SignInLimiter {
  constructor(private readonly database: DatabaseService) {}

  async check(username: string, address: string | null): Promise<void> {
    const counts = await firstRow<{ by_user: number; by_address: number }>(
      await this.database.forRequest(),
      `SELECT count(*) FILTER (WHERE target = $1)::int AS by_user,
              count(*) FILTER (WHERE address = $2)::int AS by_address
       FROM audit_event
       WHERE action IN ('auth.sign-in', 'auth.password') AND code IN ('INVALID_CREDENTIALS', 'WRONG_PASSWORD')
         AND at > now() - $3 * interval '1 second'`,
      [username, address, SIGN_IN_LIMITS.windowSeconds],
    );
    if (!counts) return;
    if (counts.by_user >= SIGN_IN_LIMITS.perUser || counts.by_address >= SIGN_IN_LIMITS.perAddress)
      throw new DomainError(
        'rate-limited',
        'TOO_MANY_SIGN_INS',
        'too many failed sign-ins; wait a minute and try again',
        undefined,
        SIGN_IN_LIMITS.windowSeconds,
      );
  }
}
