import { SUGGESTED_ALERT_RULES } from '@artemis-studio/contracts';
import { Anchor, Checkbox, Fieldset, Group, Stack, Text } from '@mantine/core';

/**
 * The suggested alert rules, offered as a cluster is registered: none chosen until the person
 * registering it ticks them, so a new cluster alerts on nothing nobody asked for.
 */
export function SuggestedRulesChoice({
  chosen,
  onChange,
}: {
  chosen: string[];
  onChange(names: string[]): void;
}) {
  const all = SUGGESTED_ALERT_RULES.map((r) => r.name);
  return (
    <Fieldset legend="Alert rules to start with">
      <Stack gap="xs">
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            Each is off until chosen; change or remove them later on the cluster&apos;s Alerting screen.
          </Text>
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={() => onChange(chosen.length === all.length ? [] : all)}
          >
            {chosen.length === all.length ? 'Choose none' : 'Choose all'}
          </Anchor>
        </Group>
        <Checkbox.Group value={chosen} onChange={onChange} aria-label="Alert rules to start with">
          <Group gap="md">
            {SUGGESTED_ALERT_RULES.map((rule) => (
              <Checkbox
                key={rule.name}
                value={rule.name}
                label={`${rule.name} (${rule.severity ?? 'warning'})`}
              />
            ))}
          </Group>
        </Checkbox.Group>
      </Stack>
    </Fieldset>
  );
}
