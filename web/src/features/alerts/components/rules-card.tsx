import {
  ALERT_THRESHOLD_UNIT,
  SUGGESTED_ALERT_RULES,
  shownFigure,
  type AlertRule,
  type AlertRuleKind,
  type CreateAlertRuleInput,
} from '@artemis-studio/contracts';
import { Badge, Card, Group, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { RefusableButton } from '../../../lib/access/refusable-button';
import { FailureAlert } from '../../../lib/ui/failure-alert';
import { QueryState } from '../../../lib/ui/query-state';
import { useAlertRules, useDeleteRule, useSaveRule } from '../api/alerts';
import { kindLabel, RuleForm } from './rule-form';

const thresholdText = (rule: { kind: AlertRuleKind; threshold?: number | null }) => {
  const unit = ALERT_THRESHOLD_UNIT[rule.kind];
  if (unit === null || rule.threshold == null) return '';
  const figure = shownFigure(rule.kind, rule.threshold);
  return unit === 'fraction' ? figure : `${figure} ${unit}`;
};

/** A cluster's rules: added, changed, turned off and deleted by admins, seen by all. */
export function Rules({ clusterId, refusal }: { clusterId: string; refusal: string | null }) {
  const rules = useAlertRules(clusterId);
  const save = useSaveRule(clusterId);
  const remove = useDeleteRule(clusterId);
  const [editing, setEditing] = useState<AlertRule | 'new' | null>(null);
  return (
    <Card withBorder>
      <Stack>
        <Group justify="space-between">
          <Text fw={600}>Rules</Text>
          <RefusableButton refusal={refusal} onClick={() => setEditing('new')}>
            Add rule
          </RefusableButton>
        </Group>
        {editing && (
          <RuleForm
            clusterId={clusterId}
            rule={editing === 'new' ? undefined : editing}
            onDone={() => setEditing(null)}
          />
        )}
        <FailureAlert error={save.error ?? remove.error} />
        <QueryState query={rules} what="the rules">
          {(data) =>
            data.items.length === 0 ? (
              <Text c="dimmed">No rules yet: nothing is watched for you.</Text>
            ) : (
              <Table aria-label="Alert rules">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>When</Table.Th>
                    <Table.Th>On</Table.Th>
                    <Table.Th>For</Table.Th>
                    <Table.Th>Severity</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.items.map((rule) => (
                    <Table.Tr key={rule.id}>
                      <Table.Td>
                        {rule.name} {!rule.enabled && <Badge color="gray">off</Badge>}
                      </Table.Td>
                      <Table.Td>
                        {kindLabel(rule.kind)} {thresholdText(rule)}
                      </Table.Td>
                      <Table.Td>{rule.subjects}</Table.Td>
                      <Table.Td>{rule.forSeconds} s</Table.Td>
                      <Table.Td>{rule.severity}</Table.Td>
                      <Table.Td>
                        <Group gap="xs" justify="flex-end" wrap="nowrap">
                          <RefusableButton
                            size="xs"
                            variant="default"
                            refusal={refusal}
                            onClick={() => setEditing(rule)}
                          >
                            Change
                          </RefusableButton>
                          <RefusableButton
                            size="xs"
                            variant="default"
                            refusal={refusal}
                            onClick={() =>
                              save.mutate({ id: rule.id, rule: { ...rule, enabled: !rule.enabled } })
                            }
                          >
                            {rule.enabled ? 'Turn off' : 'Turn on'}
                          </RefusableButton>
                          <RefusableButton
                            size="xs"
                            color="red"
                            refusal={refusal}
                            onClick={() => remove.mutate(rule.id)}
                            aria-label={`Delete rule ${rule.name}`}
                          >
                            Delete
                          </RefusableButton>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )
          }
        </QueryState>
        {rules.data && (
          <Suggestions
            missing={SUGGESTED_ALERT_RULES.filter((s) => !rules.data.items.some((r) => r.name === s.name))}
            refusal={refusal}
            onSave={(rule) => save.mutate({ rule })}
          />
        )}
      </Stack>
    </Card>
  );
}

/** The suggested rules a cluster does not have yet: nothing is watched by them until saved. */
function Suggestions({
  missing,
  refusal,
  onSave,
}: {
  missing: readonly CreateAlertRuleInput[];
  refusal: string | null;
  onSave: (rule: CreateAlertRuleInput) => void;
}) {
  if (missing.length === 0) return null;
  return (
    <Stack gap="xs" aria-label="Suggested rules">
      <Text fw={600} size="sm">
        Suggested rules — off until you save them
      </Text>
      <Table>
        <Table.Tbody>
          {missing.map((rule) => (
            <Table.Tr key={rule.name}>
              <Table.Td>{rule.name}</Table.Td>
              <Table.Td>
                {kindLabel(rule.kind)} {thresholdText(rule)}
              </Table.Td>
              <Table.Td>{rule.subjects ?? '*'}</Table.Td>
              <Table.Td>{rule.forSeconds ?? 0} s</Table.Td>
              <Table.Td>{rule.severity}</Table.Td>
              <Table.Td>
                <Group justify="flex-end">
                  <RefusableButton
                    size="xs"
                    variant="light"
                    refusal={refusal}
                    onClick={() => onSave(rule)}
                    aria-label={`Save suggested rule ${rule.name}`}
                  >
                    Save
                  </RefusableButton>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
