/**
 * Stream topics (ADR-0018, ADR-0027). The web console and the gateway both filter on these names,
 * so a name that exists on one side only fails silently: add topics here and nowhere else.
 */
export const KNOWN_TOPICS = [
  'topology',
  'health',
  'queues',
  'events',
  'consumers',
  'sessions',
  'connections',
  'capabilities',
  'jobs',
  'alerts',
] as const;
export type Topic = (typeof KNOWN_TOPICS)[number];

/** Topics whose frames are change signals ("refetch"); `events` is the one data-bearing topic. */
export const SIGNAL_TOPICS = [
  'topology',
  'health',
  'queues',
  'consumers',
  'sessions',
  'connections',
  /** The notifier's capability verdict changed (studio_capabilities). */
  'capabilities',
  /** A message job on the cluster started, made progress or ended (ADR-0012). */
  'jobs',
  /** An alert of the cluster changed state, or its rules were evaluated after a gap (issue 29). */
  'alerts',
] as const;
export type SignalTopic = (typeof SIGNAL_TOPICS)[number];

/** What a stream gets when none of its requested topics is known: `events` is heavier and opt-in. */
const DEFAULT_TOPICS: readonly Topic[] = ['topology', 'health', 'queues'];

function isTopic(value: string): value is Topic {
  return (KNOWN_TOPICS as readonly string[]).includes(value);
}

/**
 * Parses the stream's `topics` CSV: unknown names are dropped, duplicates collapse, and a list
 * that keeps nothing falls back to the defaults (ADR-0027).
 */
export function parseTopics(csv: string | undefined | null): Topic[] {
  const known = new Set(
    (csv ?? '')
      .split(',')
      .map((t) => t.trim())
      .filter(isTopic),
  );
  return known.size > 0 ? KNOWN_TOPICS.filter((t) => known.has(t)) : [...DEFAULT_TOPICS];
}
