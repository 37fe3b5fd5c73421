import { OperationTimeoutError } from 'rhea-promise';

/**
 * Whether an unhandled rejection is rhea-promise failing to close, in time, a link or session it
 * is cleaning up by itself. When an attach times out the library closes the half-made receiver
 * with `receiver.close().then(...)` and no catch (rhea-promise PR #115; the same crash is
 * reported as Azure/azure-sdk-for-js#39348), so a broker that stalls mid-attach, as in a failback,
 * rejected a promise nobody holds, and Node ended the notifier. The subscription has already
 * failed and its connection is closed by us, so nothing is left to clean up.
 */
export function isLibraryCloseTimeout(reason: unknown): boolean {
  return reason instanceof OperationTimeoutError && /^Unable to close the /.test(reason.message);
}

/**
 * Keeps the process alive through those rejections only, with a warning each; any other
 * unhandled rejection still ends the process, as Node's default does.
 */
export function tolerateLibraryCloseTimeouts(warn: (message: string) => void): void {
  process.on('unhandledRejection', (reason) => {
    if (!isLibraryCloseTimeout(reason)) throw reason;
    warn(`ignored an AMQP close that timed out inside rhea-promise: ${(reason as Error).message}`);
  });
}
