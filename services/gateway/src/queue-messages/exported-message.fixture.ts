import { EXPORT_FORMAT, type ExportedMessage } from '@artemis-studio/contracts';

/** An export's line for the gateway's unit tests: a text body, no property unless given. */
export const exportedLine = (
  data: string | null,
  over: Partial<Omit<ExportedMessage, 'body'>> & { truncated?: boolean } = {},
): ExportedMessage => {
  const { truncated = false, ...fields } = over;
  return {
    format: EXPORT_FORMAT,
    source: { clusterId: '00000000-0000-4000-8000-000000000001', node: 'a', queue: 'orders' },
    durable: true,
    priority: 4,
    messageId: null,
    correlationId: null,
    subject: null,
    replyTo: null,
    contentType: null,
    groupId: null,
    createdAt: null,
    expiresAt: null,
    properties: [],
    annotations: {},
    body: { encoding: 'text', data, truncated, masked: null },
    ...fields,
  };
};
