import { Anchor, Tooltip } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { LookBadge } from '../../../lib/ui/status-badges';
import { summaryLook } from '../alert-text';
import { useAlertSummary } from '../api/alerts';

/** The header's alert count, over every cluster the principal sees; a link to the Alerts page. */
export function AlertsBadge() {
  const summary = useAlertSummary();
  const look = summaryLook(summary.data, summary.isError);
  return (
    <Tooltip label={look.detail} multiline maw={360}>
      <Anchor
        component={Link}
        to="/alerts"
        underline="never"
        aria-label={`Alerts: ${look.label}. ${look.detail}`}
      >
        <LookBadge
          look={look}
          size="lg"
          style={{ cursor: 'pointer', whiteSpace: 'nowrap' }}
          data-testid="alerts-badge"
        />
      </Anchor>
    </Tooltip>
  );
}
