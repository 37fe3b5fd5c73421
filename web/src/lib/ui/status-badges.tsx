import type { CapabilityStatus, Health } from '@artemis-studio/contracts';
import { Badge } from '@mantine/core';

/** Health is the absence of colour: only what needs attention is coloured. */
const HEALTH: Record<Health, { label: string; color: string; variant: 'outline' | 'filled' | 'light' }> = {
  HEALTHY: { label: 'Healthy', color: 'gray', variant: 'outline' },
  DEGRADED: { label: 'Degraded', color: 'yellow', variant: 'filled' },
  DOWN: { label: 'Down', color: 'red', variant: 'filled' },
  UNKNOWN: { label: 'Unknown', color: 'gray', variant: 'light' },
};

export function HealthBadge({ health }: { health: Health }) {
  const look = HEALTH[health];
  return (
    <Badge color={look.color} variant={look.variant} radius="sm">
      {look.label}
    </Badge>
  );
}

const VERDICT: Record<
  CapabilityStatus,
  { label: string; color: string; variant: 'outline' | 'filled' | 'light' }
> = {
  AVAILABLE: { label: 'Notifications on', color: 'gray', variant: 'outline' },
  UNAVAILABLE: { label: 'Notifications off', color: 'orange', variant: 'filled' },
  UNKNOWN: { label: 'Notifications unknown', color: 'gray', variant: 'light' },
};

export function VerdictBadge({ status }: { status: CapabilityStatus }) {
  const look = VERDICT[status];
  return (
    <Badge color={look.color} variant={look.variant} radius="sm">
      {look.label}
    </Badge>
  );
}
