import type { AlertReceiverKind } from '@artemis-studio/contracts';
import type { AlertChannel } from './alert-channel';
import { alertmanagerChannel } from './alertmanager.channel';
import { emailChannel } from './email.channel';
import { slackChannel } from './slack.channel';
import { teamsChannel } from './teams.channel';
import { webhookChannel } from './webhook.channel';

/** Every receiver kind's channel; a kind of the contracts without one here fails the typecheck. */
export type AlertChannels = { readonly [K in AlertReceiverKind]: AlertChannel<K> };

export const ALERT_CHANNELS: AlertChannels = {
  alertmanager: alertmanagerChannel,
  webhook: webhookChannel,
  slack: slackChannel,
  teams: teamsChannel,
  email: emailChannel,
};
