import type { Alert, DeliveryTransition } from '@artemis-studio/contracts';
import { secretOf, type AlertChannel } from './alert-channel';
import { consoleLinks, facts, headline, type ConsoleLinks } from './alert-text';
import { postJson } from './post-json';

/** A Microsoft Teams webhook's message (a Workflows or connector URL): one Adaptive Card. */
export function teamsMessage(
  transition: DeliveryTransition,
  alert: Alert,
  links: ConsoleLinks | null = null,
) {
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
            { type: 'FactSet', facts: facts(alert, links).map(([title, value]) => ({ title, value })) },
          ],
        },
      },
    ],
  };
}
/** Microsoft Teams: its incoming webhook (a Workflows or connector URL), sealed as the secret. */
export const teamsChannel: AlertChannel<'teams'> = {
  kind: 'teams',
  send: (receiver, { transition, alert }, { post, consoleUrl }) =>
    postJson(
      post,
      secretOf(receiver),
      teamsMessage(transition, alert, consoleLinks(consoleUrl, transition, alert)),
    ),
};
