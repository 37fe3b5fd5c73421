import {
  CreateClusterRequestSchema,
  UpdateClusterRequestSchema,
  type ClusterSummary,
  type CreateClusterRequest,
  type UpdateClusterRequest,
} from '@artemis-studio/contracts';
import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  Fieldset,
  Group,
  PasswordInput,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { ApiError, describeError } from '../../../lib/api-client';

interface NodeDraft {
  name: string;
  jolokiaUrl: string;
  amqpUrl: string;
}
interface CredentialDraft {
  username: string;
  password: string;
  /** Edit only: drop the stored credential. */
  remove: boolean;
}
type Kind = 'jolokia' | 'amqp';

const emptyNode = (): NodeDraft => ({ name: '', jolokiaUrl: '', amqpUrl: '' });
const emptyCredential = (): CredentialDraft => ({ username: '', password: '', remove: false });

/** Field errors by path ("nodes.0.jolokiaUrl"), from zod issues or the gateway's `details`. */
type FieldErrors = Record<string, string>;

function issuesToErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) errors[issue.path.map(String).join('.') || '(body)'] ??= issue.message;
  return errors;
}

export interface ClusterFormProps {
  /** The cluster being edited; absent when registering. */
  existing?: ClusterSummary;
  submitLabel: string;
  onSubmit(request: CreateClusterRequest | UpdateClusterRequest): Promise<unknown>;
  /** Shown above the submit button: what else is chosen with the form (the rules to start with). */
  extra?: ReactNode;
  /** Shown, but nothing can be changed: the role may not. */
  readOnly?: boolean;
}

/**
 * Registers or edits a cluster. Validated with the contracts' own schemas before it is sent, and
 * the gateway's field errors shown beside their fields. A stored secret is never shown: the form
 * can only replace or remove it.
 */
export function ClusterForm({ existing, submitLabel, onSubmit, readOnly = false, extra }: ClusterFormProps) {
  const [name, setName] = useState(existing?.name ?? '');
  const [nodes, setNodes] = useState<NodeDraft[]>(
    existing?.nodes.map((n) => ({ name: n.name, jolokiaUrl: n.jolokiaUrl, amqpUrl: n.amqpUrl ?? '' })) ?? [
      emptyNode(),
    ],
  );
  const [origin, setOrigin] = useState(existing?.jolokiaOrigin ?? '');
  const [credentials, setCredentials] = useState<Record<Kind, CredentialDraft>>({
    jolokia: emptyCredential(),
    amqp: emptyCredential(),
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const setNode = (index: number, change: Partial<NodeDraft>) =>
    setNodes((all) => all.map((n, i) => (i === index ? { ...n, ...change } : n)));
  const setCredential = (kind: Kind, change: Partial<CredentialDraft>) =>
    setCredentials((all) => ({ ...all, [kind]: { ...all[kind], ...change } }));

  const credentialOf = (kind: Kind) => {
    const draft = credentials[kind];
    if (draft.remove) return null;
    if (!draft.username && !draft.password) return undefined;
    return { username: draft.username, password: draft.password };
  };

  function build(): CreateClusterRequest | UpdateClusterRequest {
    const nodeList = nodes.map((n) => ({
      name: n.name.trim(),
      jolokiaUrl: n.jolokiaUrl.trim(),
      ...(n.amqpUrl.trim() ? { amqpUrl: n.amqpUrl.trim() } : {}),
    }));
    const jolokia = credentialOf('jolokia');
    const amqp = credentialOf('amqp');
    if (!existing) {
      const creds = { ...(jolokia ? { jolokia } : {}), ...(amqp ? { amqp } : {}) };
      return {
        name: name.trim(),
        nodes: nodeList,
        ...(Object.keys(creds).length ? { credentials: creds } : {}),
        ...(origin.trim() ? { jolokiaOrigin: origin.trim() } : {}),
      };
    }
    const creds = { ...(jolokia !== undefined ? { jolokia } : {}), ...(amqp !== undefined ? { amqp } : {}) };
    return {
      name: name.trim(),
      nodes: nodeList,
      jolokiaOrigin: origin.trim() ? origin.trim() : null,
      ...(Object.keys(creds).length ? { credentials: creds } : {}),
    };
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const request = build();
    const checked = (existing ? UpdateClusterRequestSchema : CreateClusterRequestSchema).safeParse(request);
    if (!checked.success) {
      setErrors(issuesToErrors(checked.error.issues));
      return;
    }
    setErrors({});
    setSubmitting(true);
    try {
      await onSubmit(checked.data);
    } catch (error) {
      if (error instanceof ApiError && error.details.length > 0)
        setErrors(Object.fromEntries(error.details.map((d) => [d.path, d.message])));
      setFailure(describeError(error));
    } finally {
      setSubmitting(false);
    }
  }

  const credentialFields = (kind: Kind, title: string, stored: boolean, hint: string) => (
    <Fieldset legend={title}>
      <Stack gap="xs">
        {stored && (
          <Text size="sm" c="dimmed">
            A credential is stored (never shown). Fill both fields to replace it.
          </Text>
        )}
        {!stored && (
          <Text size="sm" c="dimmed">
            {hint}
          </Text>
        )}
        <Group grow align="flex-start">
          <TextInput
            label="Username"
            autoComplete="off"
            value={credentials[kind].username}
            disabled={credentials[kind].remove}
            error={errors[`credentials.${kind}.username`] ?? errors[`credentials.${kind}`]}
            onChange={(e) => setCredential(kind, { username: e.currentTarget.value })}
          />
          <PasswordInput
            label="Password"
            autoComplete="new-password"
            value={credentials[kind].password}
            disabled={credentials[kind].remove}
            error={errors[`credentials.${kind}.password`]}
            onChange={(e) => setCredential(kind, { password: e.currentTarget.value })}
          />
        </Group>
        {stored && (
          <Checkbox
            label="Remove the stored credential"
            checked={credentials[kind].remove}
            onChange={(e) => setCredential(kind, { remove: e.currentTarget.checked })}
          />
        )}
      </Stack>
    </Fieldset>
  );

  return (
    <form onSubmit={submit} noValidate aria-label={existing ? 'Edit cluster' : 'Register a cluster'}>
      <fieldset disabled={readOnly} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Stack>
          {failure && (
            <Alert color="red" title="Not saved" role="alert">
              {failure}
            </Alert>
          )}
          <TextInput
            label="Cluster name"
            required
            value={name}
            error={errors.name}
            onChange={(e) => setName(e.currentTarget.value)}
            data-autofocus
          />
          <Fieldset legend="Nodes">
            <Stack gap="sm">
              {nodes.map((node, index) => (
                <Group key={index} align="flex-start" wrap="nowrap" gap="xs">
                  <TextInput
                    label="Node name"
                    required
                    value={node.name}
                    error={errors[`nodes.${index}.name`]}
                    onChange={(e) => setNode(index, { name: e.currentTarget.value })}
                    w={140}
                  />
                  <TextInput
                    label="Jolokia URL"
                    required
                    placeholder="http://broker-0:8161/console/jolokia"
                    value={node.jolokiaUrl}
                    error={errors[`nodes.${index}.jolokiaUrl`]}
                    onChange={(e) => setNode(index, { jolokiaUrl: e.currentTarget.value })}
                    style={{ flex: 2 }}
                  />
                  <TextInput
                    label="AMQP URL"
                    placeholder="amqp://broker-0:61616"
                    value={node.amqpUrl}
                    error={errors[`nodes.${index}.amqpUrl`]}
                    onChange={(e) => setNode(index, { amqpUrl: e.currentTarget.value })}
                    style={{ flex: 1.5 }}
                  />
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    mt={26}
                    aria-label={`Remove node ${node.name || index + 1}`}
                    disabled={nodes.length === 1}
                    onClick={() => setNodes((all) => all.filter((_, i) => i !== index))}
                  >
                    ✕
                  </ActionIcon>
                </Group>
              ))}
              {errors.nodes && (
                <Text c="red" size="sm">
                  {errors.nodes}
                </Text>
              )}
              <Group>
                <Button variant="light" size="xs" onClick={() => setNodes((all) => [...all, emptyNode()])}>
                  Add a node
                </Button>
              </Group>
            </Stack>
          </Fieldset>
          {credentialFields(
            'jolokia',
            'Jolokia credential',
            existing?.credentials.jolokia ?? false,
            'A user in the broker console role.',
          )}
          {credentialFields(
            'amqp',
            'AMQP credential (notifications)',
            existing?.credentials.amqp ?? false,
            'Optional: the Jolokia credential is used when empty, then anonymous.',
          )}
          <TextInput
            label="Jolokia Origin"
            description="The Origin header sent to Jolokia; defaults to each node's own scheme and host."
            value={origin}
            error={errors.jolokiaOrigin}
            onChange={(e) => setOrigin(e.currentTarget.value)}
          />
          {extra}
          {!readOnly && (
            <Group justify="flex-end">
              <Button type="submit" loading={submitting}>
                {submitLabel}
              </Button>
            </Group>
          )}
        </Stack>
      </fieldset>
    </form>
  );
}
