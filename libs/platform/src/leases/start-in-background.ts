/**
 * Runs a service's start-up (leases, subscriptions) without holding up its boot. A failure while
 * the service is shutting down is expected (the bus drains under it) and ends quietly; any other
 * failure leaves the replica owning nothing, so it crashes the process, to be restarted.
 */
export function startInBackground(run: () => Promise<void>, isStopping: () => boolean): void {
  run().catch((err) => {
    if (isStopping()) return;
    throw err;
  });
}
