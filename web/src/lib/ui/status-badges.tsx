import type { CapabilityStatus, Health } from '@artemis-studio/contracts';
import { Badge, type BadgeProps } from '@mantine/core';

/** How a state shows: health is the absence of colour, so only what needs attention is coloured. */
export interface Look {
  label: string;
  color: string;
  variant: 'outline' | 'filled' | 'light';
}

export function LookBadge({ look, ...props }: { look: Look } & Omit<BadgeProps, 'color' | 'variant'>) {
  return (
    <Badge color={look.color} variant={look.variant} radius="sm" {...props}>
      {look.label}
    </Badge>
  );
}

const HEALTH: Record<Health, Look> = {
  HEALTHY: { label: 'Healthy', color: 'gray', variant: 'outline' },
  DEGRADED: { label: 'Degraded', color: 'yellow', variant: 'filled' },
  DOWN: { label: 'Down', color: 'red', variant: 'filled' },
  UNKNOWN: { label: 'Unknown', color: 'gray', variant: 'light' },
};

export const HealthBadge = ({ health }: { health: Health }) => <LookBadge look={HEALTH[health]} />;

const VERDICT: Record<CapabilityStatus, Look> = {
  AVAILABLE: { label: 'Notifications on', color: 'gray', variant: 'outline' },
  UNAVAILABLE: { label: 'Notifications off', color: 'orange', variant: 'filled' },
  UNKNOWN: { label: 'Notifications unknown', color: 'gray', variant: 'light' },
};

export const VerdictBadge = ({ status }: { status: CapabilityStatus }) => (
  <LookBadge look={VERDICT[status]} />
);
