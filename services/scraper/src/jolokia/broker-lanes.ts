/**
 * One action at a time per broker. Artemis serves every management call of a broker under one
 * lock, and a second long call fails after about a minute (AMQ229245): queued here instead, the
 * second waits its turn and the broker sees one at a time. A failure frees the lane like a success.
 */
export class BrokerLanes {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(brokerKey: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(brokerKey) ?? Promise.resolve();
    const next = previous.then(work, work);
    const tail = next.catch(() => undefined);
    this.tails.set(brokerKey, tail);
    void tail.then(() => {
      if (this.tails.get(brokerKey) === tail) this.tails.delete(brokerKey);
    });
    return next;
  }

  /** Lanes with work queued or running (for the metrics, and the tests). */
  busy(): number {
    return this.tails.size;
  }
}

/**
 * How every management call of an action or a browse is made: waiting up to 10 s for the node's
 * call budget (shared with polling) rather than being refused, and answered within 75 s, above the
 * broker's own wait for its management lock (about a minute), so a call that waited its turn there
 * is answered, not abandoned. The gateway waits longer still (90 s).
 */
export const MANAGEMENT_CALL = { waitForBudgetMs: 10_000, timeoutMs: 75_000 } as const;
