import { createHmac } from 'node:crypto';
import { secretOf, type AlertChannel } from './alert-channel';
import { consoleLinks } from './alert-text';
import { postJson } from './post-json';

/** `X-Studio-Signature`: HMAC-SHA256 of `{timestamp}.{body}` with the receiver's secret, hex. */
const webhookSignature = (secret: string, timestamp: string, body: string): string =>
  `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

/** A JSON POST of the transition, signed with the receiver's secret (docs/alerting.md). */
export const webhookChannel: AlertChannel<'webhook'> = {
  kind: 'webhook',
  send: (receiver, delivery, { post, now, consoleUrl }) => {
    const links = consoleLinks(consoleUrl, delivery.transition, delivery.alert);
    const body = JSON.stringify({
      version: 1,
      deliveryId: delivery.id,
      transition: delivery.transition,
      alert: delivery.alert,
      // The alert's page and its incident in the console; null when STUDIO_CONSOLE_URL is not set.
      url: links?.page ?? null,
      incidentUrl: links?.incident ?? null,
    });
    const timestamp = String(Math.floor(now.getTime() / 1000));
    return postJson(post, receiver.url, body, {
      'x-studio-delivery': delivery.id,
      'x-studio-timestamp': timestamp,
      'x-studio-signature': webhookSignature(secretOf(receiver), timestamp, body),
    });
  },
};
