import type { MessageJob } from '@artemis-studio/contracts';
import { Anchor, Badge, Card, Group, Progress, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useMemo, useRef, useState } from 'react';
import { RefusableButton } from '../../../../lib/access/refusable-button';
import { queryKeys } from '../../../../lib/query-keys';
import { QueryState } from '../../../../lib/ui/query-state';
import { formatNumber, formatTime } from '../../../../lib/ui/format';
import { useCancelMessageJob, useMessageJobs, useResumeMessageJob } from '../api/message-jobs';
import { jobEnding, jobPercent, jobProgress, KIND_WORDS } from '../job-text';
import { bodyScanText } from '../../message-text';
import { MessageJobDialog } from './message-job-dialog';

const STATUS_COLOURS: Record<MessageJob['status'], string> = {
  running: 'blue',
  done: 'green',
  cancelled: 'gray',
  failed: 'red',
  interrupted: 'orange',
  paused: 'yellow',
};

interface Props {
  clusterId: string;
  queue: string;
  /** Why this user may not cancel (role, read-only), or null. */
  refusal: string | null;
}

/**
 * The queue's message jobs as they run: progress from the broker's own batch counts (moved on by
 * each `jobs` signal), a cancel that stops between batches, and how each ended in words that say
 * what is certain. When a job ends, the queue's browsed messages are read again.
 */
export function MessageJobsPanel({ clusterId, queue, refusal }: Props) {
  const jobs = useMessageJobs(clusterId, queue);
  const cancel = useCancelMessageJob(clusterId);
  const resume = useResumeMessageJob(clusterId);
  const queryClient = useQueryClient();
  // Each job's status as last read: null until the first read, which only sets it.
  const seen = useRef<Map<string, MessageJob['status']> | null>(null);
  // A quarantine's release: a move from the quarantine queue to the group's origin, confirmed there.
  const [release, setRelease] = useState<{ quarantine: string; origin: string } | null>(null);
  // One object per release asked for: the dialog starts afresh (key, count, fields) when it changes,
  // and a new object each render would wipe what the operator had ticked at every jobs signal.
  const releaseSelection = useMemo(
    () => (release ? { kind: 'move' as const, to: release.origin } : null),
    [release],
  );

  useEffect(() => {
    if (!jobs.data) return;
    const before = seen.current;
    seen.current = new Map(jobs.data.jobs.map((j) => [j.id, j.status]));
    // Ended since the last read: it was running then, or started and ended in between.
    const ended = jobs.data.jobs.some(
      (j) => j.status !== 'running' && before !== null && (before.get(j.id) ?? 'running') === 'running',
    );
    if (ended) void queryClient.invalidateQueries({ queryKey: queryKeys.allQueueMessages(clusterId) });
  }, [jobs.data, clusterId, queryClient]);

  if (jobs.data && jobs.data.jobs.length === 0) return null;
  return (
    <Card withBorder data-testid="message-jobs">
      <Text fw={600} mb="xs">
        Message jobs
      </Text>
      <QueryState query={jobs} what="message jobs">
        {({ jobs: list }) => (
          <Stack gap="sm">
            {list.map((job) => (
              <JobLine
                key={job.id}
                job={job}
                clusterId={clusterId}
                refusal={refusal}
                cancelling={cancel.isPending && cancel.variables === job.id}
                onCancel={() => cancel.mutate(job.id)}
                resuming={resume.isPending && resume.variables === job.id}
                onResume={() => resume.mutate(job.id)}
                onRelease={(quarantine, origin) => setRelease({ quarantine, origin })}
              />
            ))}
            {resume.isError && (
              <Text size="sm" c="red" data-testid="message-job-resume-error">
                Could not resume: {resume.error.message}
              </Text>
            )}
          </Stack>
        )}
      </QueryState>
      <MessageJobDialog
        clusterId={clusterId}
        queue={release?.quarantine ?? queue}
        selection={releaseSelection}
        onClose={() => setRelease(null)}
      />
    </Card>
  );
}

function JobLine({
  job,
  clusterId,
  refusal,
  cancelling,
  onCancel,
  resuming,
  onResume,
  onRelease,
}: {
  job: MessageJob;
  clusterId: string;
  refusal: string | null;
  cancelling: boolean;
  onCancel(): void;
  resuming: boolean;
  onResume(): void;
  onRelease(quarantine: string, origin: string): void;
}) {
  const percent = jobPercent(job);
  const ending = jobEnding(job);
  const releasable =
    job.quarantine && job.status === 'done' && job.target && job.origin !== null
      ? { quarantine: job.target, origin: job.origin }
      : null;
  return (
    <Stack gap={4} data-testid="message-job" data-status={job.status}>
      <Group justify="space-between">
        <Group gap="xs">
          <Badge color={STATUS_COLOURS[job.status]} variant="light">
            {job.status}
          </Badge>
          <Text size="sm" fw={600}>
            {KIND_WORDS[job.kind].title}
            {job.origin !== null ? ` of the group from ${job.origin}` : ''}
            {job.filter ? ` where ${job.filter}` : ''}
            {job.bodyFilter ? ` whose body matches ${job.bodyFilter.expression}` : ''}
            {job.rate !== null ? `, at most ${formatNumber(job.rate)} a second` : ''}
          </Text>
          <Text size="sm" c="dimmed">
            by {job.requestedBy ?? 'unknown'} at {formatTime(job.startedAt)}
            {job.resumes > 0 ? `, resumed ${job.resumes === 1 ? 'once' : `${job.resumes} times`}` : ''}
          </Text>
        </Group>
        {job.status === 'running' && job.cancellable && !job.cancelRequested && (
          <RefusableButton
            refusal={refusal}
            size="xs"
            variant="default"
            loading={cancelling}
            onClick={onCancel}
          >
            Cancel
          </RefusableButton>
        )}
        {job.resumable && (
          <RefusableButton refusal={refusal} size="xs" variant="light" loading={resuming} onClick={onResume}>
            Resume
          </RefusableButton>
        )}
      </Group>
      {job.status === 'running' && percent !== null && (
        <Progress value={percent} animated aria-label="progress" />
      )}
      {job.status === 'running' && job.waiting && (
        <Text size="sm" c="orange" data-testid="message-job-waiting">
          Waiting: {job.waiting}
        </Text>
      )}
      <Text size="sm" data-testid="message-job-progress">
        {jobProgress(job)}
      </Text>
      {job.bodyScan && (
        <Text size="sm" c="dimmed">
          Its body filter, as it started: {bodyScanText(job.bodyScan)}
        </Text>
      )}
      {ending && (
        <Text size="sm" c={job.status === 'failed' ? 'red' : job.status === 'paused' ? 'orange' : 'dimmed'}>
          {ending}
        </Text>
      )}
      {job.quarantine && job.status === 'done' && job.target && (
        <Text size="sm" c="dimmed">
          The messages wait in{' '}
          <Anchor component={Link} to={`/clusters/${clusterId}/queues/${encodeURIComponent(job.target)}`}>
            {job.target}
          </Anchor>
          {job.origin !== null
            ? `: move them to ${job.origin} from there to redrive them, or retry them there to send them back to ${job.queue}.`
            : `: retry them there to send them back to ${job.queue}.`}
        </Text>
      )}
      {releasable && (
        <Group>
          <RefusableButton
            refusal={refusal}
            size="xs"
            variant="light"
            onClick={() => onRelease(releasable.quarantine, releasable.origin)}
          >
            Release to {releasable.origin}…
          </RefusableButton>
        </Group>
      )}
    </Stack>
  );
}
