import { Injectable } from '@nestjs/common';
import { AuditRepository } from '../audit/audit.repository';
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
  constructor(private readonly audit: AuditRepository) {}

  async check(username: string, address: string | null): Promise<void> {
    const counts = await this.audit.wrongPasswords(username, address, SIGN_IN_LIMITS.windowSeconds);
    if (counts.byUser >= SIGN_IN_LIMITS.perUser || counts.byAddress >= SIGN_IN_LIMITS.perAddress)
      throw new DomainError(
        'rate-limited',
        'TOO_MANY_SIGN_INS',
        'too many failed sign-ins; wait a minute and try again',
        undefined,
        SIGN_IN_LIMITS.windowSeconds,
      );
  }
}
