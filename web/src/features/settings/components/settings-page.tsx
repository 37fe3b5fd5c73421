import { isSettingKey, SETTINGS, type Setting, type SettingKey } from '@artemis-studio/contracts';
import { Badge, Button, Group, NumberInput, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { NOT_ADMINISTRATOR } from '../../../lib/access/abilities';
import { useAbilities } from '../../../lib/access/me';
import { RefusableButton } from '../../../lib/access/refusable-button';
import { describeError } from '../../../lib/api-client';
import { QueryState } from '../../../lib/ui/query-state';
import { usePutSetting, useSettings } from '../api/settings';
import { TableHead } from '../../../lib/ui/table-head';

function SettingRow({ setting }: { setting: Setting & { key: SettingKey } }) {
  const put = usePutSetting();
  const refusal = useAbilities().administer ? null : NOT_ADMINISTRATOR;
  const spec = SETTINGS[setting.key];
  const [draft, setDraft] = useState<number | string>(setting.value);
  const [error, setError] = useState<string | null>(null);
  const save = async (value: number) => {
    const checked = spec.schema.safeParse(value);
    if (!checked.success) return setError(checked.error.issues[0]?.message ?? 'not a valid value');
    setError(null);
    try {
      await put.mutateAsync({ key: setting.key, value: checked.data });
      notifications.show({ message: `${setting.key} is now ${checked.data} ${spec.unit}.` });
    } catch (e) {
      setError(describeError(e));
    }
  };
  return (
    <Table.Tr>
      <Table.Td maw={420}>
        <Text fw={600} size="sm" ff="monospace">
          {setting.key}
        </Text>
        <Text size="xs" c="dimmed">
          {spec.description}
        </Text>
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <NumberInput
            aria-label={setting.key}
            value={draft}
            onChange={setDraft}
            error={error}
            suffix={` ${spec.unit}`}
            w={180}
            allowDecimal={false}
            disabled={refusal !== null}
          />
          <RefusableButton
            refusal={refusal}
            variant="light"
            loading={put.isPending}
            disabled={Number(draft) === setting.value}
            onClick={() => void save(Number(draft))}
          >
            Save
          </RefusableButton>
        </Group>
      </Table.Td>
      <Table.Td>
        {setting.source === 'override' ? (
          <Group gap={6}>
            <Badge variant="light" color="gray">
              override
            </Badge>
            {!refusal && (
              <Button
                variant="subtle"
                size="xs"
                onClick={() => void save(setting.default).then(() => setDraft(setting.default))}
              >
                Reset to {setting.default}
              </Button>
            )}
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            default
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/** Runtime settings: every service picks a change up within seconds, without a restart. */
export function SettingsPage() {
  const settings = useSettings();
  return (
    <Stack>
      <Title order={2}>Settings</Title>
      <Text c="dimmed" size="sm">
        Shared by every Studio service and replica; a change applies within seconds, without a restart.
      </Text>
      <QueryState query={settings} what="settings">
        {(list) => (
          <Table verticalSpacing="md" aria-label="Runtime settings">
            <TableHead columns={['Setting', 'Value', 'Source']} />
            <Table.Tbody>
              {list
                .filter((s): s is Setting & { key: SettingKey } => isSettingKey(s.key))
                .map((s) => (
                  <SettingRow key={`${s.key}:${s.value}`} setting={s} />
                ))}
            </Table.Tbody>
          </Table>
        )}
      </QueryState>
    </Stack>
  );
}
