import type { Alert, AlertState } from '@artemis-studio/contracts';

/** "FIRING: orders backlog on orders.eu (prod)": the line every shape leads with. */
function headline(transition: AlertState, alert: Alert): string {
  return `${transition.toUpperCase()}: ${alert.ruleName} on ${alert.subject} (${alert.clusterName})`;
}

/** The alert's figures, in the order a person on call reads them. */
function facts(alert: Alert): [string, string][] {
  return [
    ['Cluster', alert.clusterName],
    ['Subject', alert.subject],
    ['Severity', alert.severity],
    ['Since', alert.firedAt ?? alert.startedAt],
    ...(alert.endedAt
      ? ([['Ended', `${alert.endedAt} (${alert.endReason ?? ''})`]] as [string, string][])
      : []),
  ];
}

/** A Slack incoming webhook's message: a plain `text` for notifications, blocks for the channel. */
export function slackMessage(transition: AlertState, alert: Alert) {
  const title = headline(transition, alert);
  return {
    text: title,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*${title}*\n${alert.description}` } },
      {
        type: 'context',
        elements: facts(alert).map(([name, value]) => ({ type: 'mrkdwn', text: `*${name}:* ${value}` })),
      },
    ],
  };
}

/** A Microsoft Teams webhook's message (a Workflows or connector URL): one Adaptive Card. */
export function teamsMessage(transition: AlertState, alert: Alert) {
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            {
              type: 'TextBlock',
              size: 'Medium',
              weight: 'Bolder',
              wrap: true,
              color: transition === 'resolved' ? 'Good' : 'Attention',
              text: headline(transition, alert),
            },
            { type: 'TextBlock', wrap: true, text: alert.description },
            { type: 'FactSet', facts: facts(alert).map(([title, value]) => ({ title, value })) },
          ],
        },
      },
    ],
  };
}

/** An email's subject and plain-text body. */
export function emailMessage(transition: AlertState, alert: Alert): { subject: string; text: string } {
  return {
    subject: `[${alert.severity}] ${headline(transition, alert)}`,
    text: [
      alert.description,
      '',
      ...facts(alert).map(([name, value]) => `${name}: ${value}`),
      '',
      '— Artemis Studio',
    ].join('\n'),
  };
}
