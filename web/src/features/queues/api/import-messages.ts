import { QueueImportReportSchema } from '@artemis-studio/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sendText } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

interface ImportRequest {
  file: string;
  dryRun: boolean;
  rate?: number;
  idempotencyKey?: string;
}

/**
 * An export's NDJSON sent to the queue, every line checked by the gateway first; a dry run only
 * checks and counts. Once imported, the queues and their messages are read again.
 */
export function useImportMessages(clusterId: string, queue: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, dryRun, rate, idempotencyKey }: ImportRequest) => {
      const query = new URLSearchParams({ dryRun: String(dryRun), ...(rate ? { rate: String(rate) } : {}) });
      return sendText(
        `/clusters/${clusterId}/queues/${encodeURIComponent(queue)}/import?${query.toString()}`,
        file,
        'application/x-ndjson',
        QueueImportReportSchema,
        idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {},
      );
    },
    onSuccess: (report) => {
      if (!report.dryRun) void queryClient.invalidateQueries({ queryKey: queryKeys.queues(clusterId) });
    },
  });
}
