import { Group, Loader, Popover, Text, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { formatAge, type FreshnessState } from '../../lib/freshness/freshness';
import { useFreshness } from '../../lib/freshness/use-freshness';
import { LookBadge, type Look } from '../../lib/ui/status-badges';

/** No green (ADR-0052): Live is a bright neutral mark; colour only where attention is due. */
const LOOK: Record<FreshnessState, Look> = {
  live: { label: 'Live', color: 'gray', variant: 'outline' },
  polling: { label: 'Polling', color: 'gray', variant: 'light' },
  paused: { label: 'Paused', color: 'gray', variant: 'filled' },
  reconnecting: { label: 'Reconnecting…', color: 'yellow', variant: 'filled' },
  offline: { label: 'Offline', color: 'red', variant: 'filled' },
};

/** The one freshness indicator, in the header of every route. */
export function FreshnessIndicator() {
  const freshness = useFreshness();
  const [opened, { close, open, toggle }] = useDisclosure(false);
  const look = LOOK[freshness.state];
  const waiting =
    freshness.state === 'paused' && freshness.waiting > 0
      ? ` · ${freshness.waiting} update${freshness.waiting === 1 ? '' : 's'} waiting`
      : '';
  return (
    <>
      {/* Announced on a change of state only: the ticking age would flood a screen reader. */}
      <VisuallyHidden aria-live="polite" role="status">
        {`Data ${look.label}`}
      </VisuallyHidden>
      <Popover opened={opened} onChange={(o) => (o ? open() : close())} width={360} withArrow shadow="md">
        <Popover.Target>
          <Group
            gap={8}
            wrap="nowrap"
            data-testid="freshness"
            data-state={freshness.state}
            onMouseEnter={open}
            onMouseLeave={close}
            onClick={toggle}
            onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && toggle()}
            tabIndex={0}
            role="button"
            aria-label={`Freshness: ${look.label}. ${freshness.explanation}`}
            style={{ cursor: 'pointer' }}
          >
            {/* The state never gives way to the header's other parts: a clipped "PA…" says nothing. */}
            <LookBadge
              look={look}
              size="lg"
              style={{ flexShrink: 0, overflow: 'visible' }}
              leftSection={freshness.fetching ? <Loader size={10} color="currentColor" /> : null}
            />
            <Text size="sm" c="dimmed" data-testid="freshness-age" truncate="end">
              {formatAge(freshness.lastUpdatedAt, Date.now())}
              {waiting}
            </Text>
          </Group>
        </Popover.Target>
        <Popover.Dropdown>
          <Text size="sm" data-testid="freshness-explanation">
            {freshness.explanation}
          </Text>
        </Popover.Dropdown>
      </Popover>
    </>
  );
}
