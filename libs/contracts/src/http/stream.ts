import { z } from 'zod';
import { Instant, Uuid } from '../common';

/**
 * The stream's named frames besides its topics (docs/http-stream.md). A client that does not
 * listen for one is unaffected by it: each is additive.
 */
export const STREAM_FRAMES = {
  /**
   * Sent on every stream at the heartbeat interval, `{"ts"}`: silence longer than that means a
   * dead stream (ADR-0052).
   */
  ping: 'ping',
  /** The replay after a Last-Event-ID did not cover everything the client missed. */
  replayGap: 'replay-gap',
  /** The cluster was removed: the stream ends after this frame and must not be reopened. */
  clusterRemoved: 'cluster-removed',
} as const;

const REPLAY_GAP_REASONS = ['replay-cap', 'history-unavailable'] as const;

/**
 * Sent before the replayed events when the replay leaves a gap: events after `lastEventId` that the
 * client will never receive on this stream. With `replay-cap`, the replay holds the newest events
 * only and resumes at `replayFrom`; with `history-unavailable`, nothing could be read and the
 * stream goes live at once. The events themselves stay in the history (GET …/events).
 * Also sent mid-stream when the gateway missed stored events on the bus and could not read them
 * all back: `lastEventId` is then the last event sent before the gap.
 */
export const ReplayGapFrameSchema = z.object({
  clusterId: Uuid,
  /** The client's cursor: the last event it had. */
  lastEventId: z.number().int().nonnegative(),
  /** The first replayed event's seq; null when nothing was replayed. */
  replayFrom: z.number().int().positive().nullable(),
  /** How many events fall in the gap; null when it could not be counted. */
  missed: z.number().int().nonnegative().nullable(),
  reason: z.enum(REPLAY_GAP_REASONS),
});
export type ReplayGapFrame = z.infer<typeof ReplayGapFrameSchema>;

export const ClusterRemovedFrameSchema = z.object({ clusterId: Uuid, ts: Instant });
export type ClusterRemovedFrame = z.infer<typeof ClusterRemovedFrameSchema>;
