import { Checkbox, SegmentedControl, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useSendMessage } from '../api/broker-changes';
import { useStartMessageJob } from '../message-jobs/api/message-jobs';
import { parseHeaders } from '../message-text';
import type { ResendDraftReady } from '../resend-draft';
import { ActionFormButton } from './action-form-button';
import { showOutcome } from './show-outcome';

interface Props {
  clusterId: string;
  queue: string;
  /** The queue's address, when known: a message may go there instead, to every queue bound to it. */
  address?: string;
  refusal: string | null;
  /**
   * A browsed message to edit and send again (its body, its properties with their types), and
   * where it is, for removing it once the new one is sent.
   */
  resend?: { draft: ResendDraftReady; messageId: string; node: string };
}

/**
 * "Send message…": one text or Base64 message to this queue or its address; String headers go
 * through management, typed properties over AMQP. As "Edit and resend…" it starts from a browsed
 * message, may go to another queue, and may remove the original once the new one is accepted.
 */
export function SendMessageButton({ clusterId, queue, address, refusal, resend }: Props) {
  const send = useSendMessage(clusterId, queue);
  const remove = useStartMessageJob(clusterId, queue);
  const [toAddress, setToAddress] = useState(false);
  const [toQueue, setToQueue] = useState(queue);
  const [body, setBody] = useState(resend?.draft.body ?? '');
  const [encoding, setEncoding] = useState<'text' | 'base64'>(resend?.draft.encoding ?? 'text');
  const [headers, setHeaders] = useState(resend?.draft.headers ?? '');
  const [durable, setDurable] = useState(resend?.draft.durable ?? true);
  const [removeOriginal, setRemoveOriginal] = useState(false);
  const [routing, setRouting] = useState<'as-bound' | 'ANYCAST' | 'MULTICAST'>('as-bound');
  const parsed = parseHeaders(headers);
  const submit = async (idempotencyKey: string) => {
    if (!('headers' in parsed)) return;
    const result = await send.mutateAsync({
      idempotencyKey,
      message: {
        body,
        bodyEncoding: encoding,
        headers: parsed.headers,
        properties: parsed.properties,
        durable,
        ...(toAddress && routing !== 'as-bound' ? { routingType: routing } : {}),
      },
      ...(toAddress && address !== undefined ? { address } : {}),
      ...(!toAddress && toQueue.trim() && toQueue.trim() !== queue ? { queue: toQueue.trim() } : {}),
    });
    showOutcome(`Sent to ${result.target} on ${result.nodes[0]?.node}`, result.nodes, 'sent');
    // Removed only once the new one is accepted: at worst both are there, never neither.
    if (resend && removeOriginal)
      await remove.mutateAsync({
        kind: 'delete',
        body: { messageIds: [resend.messageId], node: resend.node },
        idempotencyKey: `${idempotencyKey}-original`,
      });
  };
  return (
    <ActionFormButton
      label={resend ? 'Edit and resend…' : 'Send message…'}
      refusal={refusal}
      title={resend ? `Edit and resend message ${resend.messageId}` : `Send a message to ${queue}`}
      size="lg"
      submitLabel="Send"
      canSubmit={!('error' in parsed) && (toAddress || toQueue.trim() !== '')}
      mutation={send}
      submit={submit}
    >
      {address !== undefined && address !== queue && (
        <SegmentedControl
          aria-label="Send to"
          value={toAddress ? 'address' : 'queue'}
          data={[
            { value: 'queue', label: resend ? 'A queue' : 'This queue only' },
            { value: 'address', label: `Its address ${address} (every queue bound to it)` },
          ]}
          onChange={(v) => setToAddress(v === 'address')}
        />
      )}
      {resend && !toAddress && (
        <TextInput
          label="To queue"
          description="This queue, or another on the same broker"
          value={toQueue}
          onChange={(e) => setToQueue(e.currentTarget.value)}
        />
      )}
      {toAddress && (
        <SegmentedControl
          aria-label="Routing type"
          value={routing}
          data={[
            { value: 'as-bound', label: 'Every queue bound' },
            { value: 'ANYCAST', label: 'Anycast queues only' },
            { value: 'MULTICAST', label: 'Multicast queues only' },
          ]}
          onChange={(v) => setRouting(v as typeof routing)}
        />
      )}
      <SegmentedControl
        aria-label="Body encoding"
        value={encoding}
        data={[
          { value: 'text', label: 'Text' },
          { value: 'base64', label: 'Bytes (Base64)' },
        ]}
        onChange={(v) => setEncoding(v as 'text' | 'base64')}
      />
      <Textarea
        label="Body"
        autosize
        minRows={4}
        maxRows={14}
        value={body}
        onChange={(e) => setBody(e.currentTarget.value)}
      />
      <Textarea
        label="Headers"
        description="One name=value a line, a String property; name:long=42 (or :int, :double, :boolean) a typed one, sent over AMQP as an application would"
        autosize
        minRows={2}
        value={headers}
        error={'error' in parsed ? parsed.error : undefined}
        onChange={(e) => setHeaders(e.currentTarget.value)}
      />
      {resend && resend.draft.widened.length > 0 && (
        <Text size="sm" c="dimmed">
          Sent as the nearest type a send takes: {resend.draft.widened.join(', ')}.
        </Text>
      )}
      <Checkbox label="Durable" checked={durable} onChange={(e) => setDurable(e.currentTarget.checked)} />
      {resend && (
        <Checkbox
          label={`Remove the original (message ${resend.messageId}) once this one is sent`}
          description="A delete of one chosen message, audited as such; if it is no longer there, it is said"
          checked={removeOriginal}
          onChange={(e) => setRemoveOriginal(e.currentTarget.checked)}
        />
      )}
    </ActionFormButton>
  );
}
