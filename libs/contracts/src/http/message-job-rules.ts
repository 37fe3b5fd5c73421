export const MESSAGE_JOB_KINDS = ['move', 'copy', 'retry', 'delete'] as const;
export type MessageJobKind = (typeof MESSAGE_JOB_KINDS)[number];

/** Why a job's selection makes no sense, or null. Shared by the route's schema and the console's form. */
export function selectionProblem(job: {
  kind: MessageJobKind;
  messageIds?: string[];
  node?: string;
  filter?: string;
  origin?: string;
  to?: string;
  quarantine?: string;
  toNode?: string;
  rate?: number;
  waitForConsumer?: boolean;
  pauseOnReturns?: unknown;
  bodyFilter?: unknown;
}): string | null {
  const pacing = pacingProblem(job);
  if (pacing) return pacing;
  if (job.toNode !== undefined && job.bodyFilter)
    return "a move to another node takes the node's messages by the broker's filter, not a body filter";
  if (job.toNode !== undefined) return nodeMoveProblem({ ...job, toNode: job.toNode });
  if (job.messageIds && !job.node) return 'chosen messages need the node they were browsed on';
  if (job.messageIds && (job.filter || job.origin || job.bodyFilter))
    return 'choose messages, or give a filter or an origin, not both';
  if (job.bodyFilter && job.kind === 'copy')
    return 'the broker copies chosen messages only: choose them (it has no copy by filter)';
  if ((job.kind === 'move' || job.kind === 'copy') && !job.to && !job.quarantine)
    return `${job.kind} needs the queue to send the messages to ('to')`;
  if (job.kind === 'copy' && !job.messageIds)
    return 'the broker copies chosen messages only: choose them (it has no copy by filter)';
  if (job.kind !== 'retry' && job.origin) return "'origin' names a dead-letter group to retry";
  if (job.kind === 'retry' && job.to)
    return "a retry sends messages back where they came from: move them to send them elsewhere ('to')";
  if (job.kind === 'delete' && (job.to || job.quarantine)) return 'a delete sends messages nowhere';
  if (job.quarantine && job.messageIds) return 'a quarantine takes a group or a filter, not chosen messages';
  return null;
}

/** Why a start gate or a return guard makes no sense for the job, or null. */
function pacingProblem(job: {
  kind: MessageJobKind;
  messageIds?: string[];
  origin?: string;
  quarantine?: string;
  toNode?: string;
  waitForConsumer?: boolean;
  pauseOnReturns?: unknown;
}): string | null {
  // Both watch the one queue the messages go to: its consumers, and what it dead-letters again.
  const watched = job.waitForConsumer ? 'a start gate' : job.pauseOnReturns ? 'a return guard' : null;
  if (!watched) return null;
  if (job.kind === 'delete') return `a delete sends messages nowhere: ${watched} has nothing to watch`;
  if (job.quarantine) return `a quarantine is meant to have no consumer: give ${watched} to its release`;
  if (job.toNode) return 'a move to another node goes by the cluster link, which the job checks itself';
  if (job.kind === 'retry' && job.origin === undefined)
    return `the messages go back each to its own queue: ${watched} needs one queue ('origin')`;
  return null;
}

/** Why a move to another node makes no sense, or null. */
function nodeMoveProblem(job: {
  kind: MessageJobKind;
  messageIds?: string[];
  node?: string;
  toNode: string;
  to?: string;
  quarantine?: string;
  origin?: string;
}): string | null {
  if (job.kind !== 'move') return "only a move goes to another node ('toNode')";
  if (!job.node) return "a move to another node needs the node the messages are on ('node')";
  if (job.node === job.toNode) return 'the messages are on that node already: choose another';
  if (job.messageIds) return "a move to another node takes the node's messages by filter, or all of them";
  if (job.to || job.quarantine || job.origin)
    return "a move to another node keeps the queue: give 'toNode' alone, not 'to', 'quarantine' or 'origin'";
  return null;
}
