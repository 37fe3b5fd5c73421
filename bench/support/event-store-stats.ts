/**
 * The event store's batch-size histogram (sum and count), its deferrals, and the times its
 * consumer's pulls went unanswered and were pulled again, from its /metrics.
 */
export async function batchStats(
  url: string,
): Promise<{ sum: number; count: number; deferred: number; pullsGivenUp: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const value = (name: string) =>
    Number(new RegExp(`^${name}(\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[2] ?? 0);
  return {
    sum: value('studio_event_store_batch_size_sum'),
    count: value('studio_event_store_batch_size_count'),
    deferred: value('studio_event_store_deferred_total'),
    pullsGivenUp: value('studio_bus_pulls_given_up_total'),
  };
}
