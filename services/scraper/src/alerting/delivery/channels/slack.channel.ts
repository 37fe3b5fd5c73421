import type { Alert, DeliveryTransition } from '@artemis-studio/contracts';
import { secretOf, type AlertChannel } from './alert-channel';
import { consoleLinks, facts, headline, type ConsoleLinks } from './alert-text';
import { postJson } from './post-json';

/** A Slack incoming webhook's message: a plain `text` for notifications, blocks for the channel. */
export function slackMessage(
  transition: DeliveryTransition,
  alert: Alert,
  links: ConsoleLinks | null = null,
) {
  const title = headline(transition, alert);
  return {
    text: title,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*${title}*\n${alert.description}` } },
      {
        type: 'context',
        elements: facts(alert, links).map(([name, value]) => ({
          type: 'mrkdwn',
          text: `*${name}:* ${value}`,
        })),
      },
    ],
  };
}
/** Slack: its incoming webhook, whose URL is the receiver's sealed secret. */
export const slackChannel: AlertChannel<'slack'> = {
  kind: 'slack',
  send: (receiver, { transition, alert }, { post, consoleUrl }) =>
    postJson(
      post,
      secretOf(receiver),
      slackMessage(transition, alert, consoleLinks(consoleUrl, transition, alert)),
    ),
};
