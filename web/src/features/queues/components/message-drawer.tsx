import type { BrowsedMessage } from '@artemis-studio/contracts';
import {
  Alert,
  Badge,
  Button,
  Code,
  Drawer,
  Group,
  SegmentedControl,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { formatNumber } from '../../../lib/ui/format';
import { bodyNote, bytesView } from '../message-text';

/**
 * One message as the broker shows it (headers, properties, body), with the next and previous
 * across the queue's pages: stepping past a page's edge reads the next page and shows its first.
 */
export function MessageDrawer({
  message,
  hasPrevious,
  hasNext,
  stepping,
  onStep,
  onClose,
  actions,
}: {
  message: BrowsedMessage | null;
  hasPrevious: boolean;
  hasNext: boolean;
  /** A page is being read for the step asked for. */
  stepping: boolean;
  onStep(direction: -1 | 1): void;
  onClose(): void;
  /** What can be done with the message shown (edit and resend). */
  actions?: (message: BrowsedMessage) => ReactNode;
}) {
  const note = message ? bodyNote(message) : null;
  const [view, setView] = useState<'hex' | 'text' | 'base64'>('hex');
  return (
    <Drawer
      opened={message !== null}
      onClose={onClose}
      position="right"
      size="xl"
      title={message ? `Message ${message.messageId}` : ''}
    >
      {message && (
        <Stack data-testid="message-drawer">
          {actions && <Group>{actions(message)}</Group>}
          <Group justify="space-between">
            <Group gap="xs">
              <Badge variant="light">{message.type}</Badge>
              {message.durable && <Badge variant="light">durable</Badge>}
              {message.redelivered && (
                <Badge color="orange" variant="light">
                  redelivered
                </Badge>
              )}
              {message.largeMessage && (
                <Badge color="grape" variant="light">
                  large
                </Badge>
              )}
            </Group>
            <Group gap="xs">
              <Button
                size="xs"
                variant="default"
                disabled={!hasPrevious || stepping}
                onClick={() => onStep(-1)}
              >
                Previous
              </Button>
              <Button
                size="xs"
                variant="default"
                disabled={!hasNext || stepping}
                loading={stepping}
                onClick={() => onStep(1)}
              >
                Next
              </Button>
            </Group>
          </Group>
          <Table fz="sm" verticalSpacing={2} aria-label="Headers">
            <Table.Tbody>
              {(
                [
                  ['User id', message.userId ?? '—'],
                  ['Address', message.address ?? '—'],
                  ['Protocol', message.protocol ?? '—'],
                  ['Priority', String(message.priority)],
                  ['Sent', message.timestamp ?? '—'],
                  ['Expires', message.expiration ?? 'never'],
                  [
                    'Size (persistent)',
                    message.persistentSize === null ? '—' : formatNumber(message.persistentSize),
                  ],
                ] as const
              ).map(([name, value]) => (
                <Table.Tr key={name}>
                  <Table.Td fw={600} w={160}>
                    {name}
                  </Table.Td>
                  <Table.Td>{value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Text fw={600}>Properties</Text>
          <Code block>{JSON.stringify(message.properties, null, 2)}</Code>
          <Group justify="space-between">
            <Text fw={600}>Body</Text>
            {message.body.encoding === 'base64' && message.body.preview !== null && (
              <SegmentedControl
                size="xs"
                aria-label="Show the bytes as"
                value={view}
                onChange={(v) => setView(v as typeof view)}
                data={[
                  { value: 'hex', label: 'Hex' },
                  { value: 'text', label: 'Text (UTF-8)' },
                  { value: 'base64', label: 'Base64' },
                ]}
              />
            )}
          </Group>
          {note && (
            <Alert color="yellow" data-testid="body-truncated">
              {note}
            </Alert>
          )}
          {message.body.preview !== null && (
            <Code block data-testid="message-body">
              {message.body.encoding === 'base64'
                ? bytesView(message.body.preview, view)
                : message.body.preview}
            </Code>
          )}
        </Stack>
      )}
    </Drawer>
  );
}
