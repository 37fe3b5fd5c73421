import {
  BODY_PATH,
  MESSAGE_BODY_ROLES,
  type ClusterSummary,
  type MessageBodyRole,
  type UpdateClusterRequest,
} from '@artemis-studio/contracts';
import { Alert, Button, Card, Group, SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { describeError } from '../../../lib/api-client';

/** One rule per line; blank lines are nothing. */
const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

interface Props {
  cluster: Pick<ClusterSummary, 'messageBodies' | 'masking'>;
  /** Why this user may not change it, or null. */
  refusal: string | null;
  save(request: UpdateClusterRequest): Promise<unknown>;
}

/**
 * Who may read this cluster's messages, and what is masked in them before they leave the gateway:
 * property names, and JSON paths in a body (a body that is not JSON is then withheld whole).
 */
export function MessageAccessCard({ cluster, refusal, save }: Props) {
  const [role, setRole] = useState<MessageBodyRole>(cluster.messageBodies);
  const [properties, setProperties] = useState(cluster.masking.properties.join('\n'));
  const [paths, setPaths] = useState(cluster.masking.bodyPaths.join('\n'));
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const badPath = lines(paths).find((p) => !BODY_PATH.test(p));

  const submit = () => {
    setSaving(true);
    setError(null);
    void save({ messageBodies: role, masking: { properties: lines(properties), bodyPaths: lines(paths) } })
      .then(() => notifications.show({ message: 'Message access saved.' }))
      .catch(setError)
      .finally(() => setSaving(false));
  };

  return (
    <Card withBorder>
      <fieldset disabled={refusal !== null} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Stack>
          <Text fw={600}>Message contents</Text>
          <Text size="sm" c="dimmed">
            Messages often hold personal data. Browsing them needs this role or above; the masking applies to
            everyone, before a message leaves Studio.
          </Text>
          <SegmentedControl
            aria-label="Who may read messages"
            data={MESSAGE_BODY_ROLES.map((r) => ({ value: r, label: `${r}s and above` }))}
            value={role}
            onChange={(value) => setRole(value as MessageBodyRole)}
            w="fit-content"
          />
          <Group grow align="flex-start">
            <Textarea
              label="Masked properties"
              description="One name per line: email masks applicationProperties.email too"
              autosize
              minRows={3}
              value={properties}
              onChange={(e) => setProperties(e.currentTarget.value)}
            />
            <Textarea
              label="Masked body paths"
              description="One JSON path per line, e.g. $.customer.email or $.cards[*].pan"
              autosize
              minRows={3}
              value={paths}
              error={badPath ? `${badPath} is not a JSON path such as $.customer.email` : undefined}
              onChange={(e) => setPaths(e.currentTarget.value)}
            />
          </Group>
          {error ? <Alert color="red">{describeError(error)}</Alert> : null}
          <Group justify="flex-end">
            <Button
              onClick={submit}
              loading={saving}
              disabled={badPath !== undefined}
              title={refusal ?? undefined}
            >
              Save message access
            </Button>
          </Group>
        </Stack>
      </fieldset>
    </Card>
  );
}
