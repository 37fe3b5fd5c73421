/** Why a period is stated when live nodes leave (a failover). */
export const goneWithItsNodes = (nodes: string[]) =>
  `${nodes.join(', ')} left the live nodes (a failover): the notifications it held and had not delivered went with it`;

/** Why the cluster stopped being fully observed, as the period that opens says it. */
export function interruptedBecause(why: {
  /** The lost subscription's error, when one was lost. */
  lostBecause?: string;
  /** Live nodes that stopped answering with no backup taking over (the scraper's `unseen`). */
  unseen: readonly string[];
  wanted: readonly string[];
  unobserved: readonly string[];
}): string {
  if (why.lostBecause) return `the subscription to ${why.unobserved.join(', ')} was lost: ${why.lostBecause}`;
  if (why.unseen.length > 0)
    return `${why.unseen.join(', ')} stopped answering while live, and no backup took over: what it sends if it serves is not observed until it answers again`;
  if (why.wanted.length === 0) return 'no live node with an AMQP URL';
  return `not yet subscribed to ${why.unobserved.join(', ')}`;
}
