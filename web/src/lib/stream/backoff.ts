/** ADR-0052: a 1 s floor and a 30 s cap, forever. */
export const RECONNECT_FLOOR_MS = 1000;
export const RECONNECT_CAP_MS = 30_000;

/**
 * The wait before reconnect attempt `attempt` (0 for the first after a failure): a uniform draw
 * between the floor and an exponential ceiling, capped. Full jitter, so every tab of a restarted
 * Studio does not come back in the same second; the floor, so none comes back in a tight loop.
 */
export function reconnectDelay(
  attempt: number,
  random: () => number = Math.random,
  floorMs = RECONNECT_FLOOR_MS,
  capMs = RECONNECT_CAP_MS,
): number {
  const ceiling = Math.min(capMs, floorMs * 2 ** (Math.max(0, attempt) + 1));
  return Math.round(floorMs + random() * (ceiling - floorMs));
}
