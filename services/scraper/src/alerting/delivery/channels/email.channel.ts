import type { Alert, DeliveryTransition, EmailSettings } from '@artemis-studio/contracts';
import { createTransport } from 'nodemailer';
import { rootCertificates } from 'node:tls';
import type { AlertChannel } from './alert-channel';
import { consoleLinks, facts, headline, type ConsoleLinks } from './alert-text';

const SMTP_TIMEOUT_MS = 10_000;

/**
 * Sends one email through the receiver's SMTP server: `smtp://` must offer STARTTLS (a server that
 * does not is refused, so no alert and no password crosses the network in clear), `smtps://` is
 * TLS from the first byte. `ca` is the operators' own CA (SCRAPER_SMTP_CA_FILE) for an internal
 * relay, beside the system's.
 */
async function sendEmail(
  smtpUrl: string,
  settings: EmailSettings,
  password: string | null,
  message: { subject: string; text: string },
  ca: string | null,
): Promise<void> {
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  const transport = createTransport({
    host: url.hostname,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    requireTLS: !secure,
    auth: settings.user ? { user: settings.user, pass: password ?? '' } : undefined,
    // `ca` replaces the trusted roots rather than adding to them: the system's are given again.
    tls: ca ? { ca: [...rootCertificates, ca] } : undefined,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  try {
    await transport.sendMail({ from: settings.from, to: settings.to, ...message });
  } finally {
    transport.close();
  }
}

/** An email's subject and plain-text body. */
export function emailMessage(
  transition: DeliveryTransition,
  alert: Alert,
  links: ConsoleLinks | null = null,
): { subject: string; text: string } {
  return {
    subject: `[${alert.severity}] ${headline(transition, alert)}`,
    text: [
      alert.description,
      '',
      ...facts(alert, links).map(([name, value]) => `${name}: ${value}`),
      '',
      '— Artemis Studio',
    ].join('\n'),
  };
}

/** Email over the receiver's SMTP server, its password the receiver's sealed secret. */
export const emailChannel: AlertChannel<'email'> = {
  kind: 'email',
  send: (receiver, { transition, alert }, { smtpCa, consoleUrl }) => {
    if (!receiver.email) throw new Error(`receiver ${receiver.id} has no email settings`);
    const message = emailMessage(transition, alert, consoleLinks(consoleUrl, transition, alert));
    return sendEmail(receiver.url, receiver.email, receiver.secret, message, smtpCa);
  },
};
