import type { Alert, AlertReceiverKind, DeliveryTransition, EmailSettings } from '@artemis-studio/contracts';

/** A receiver as a channel sends to it, its secret opened. */
export interface ReceiverTarget {
  id: string;
  kind: AlertReceiverKind;
  url: string;
  /** Opened: a webhook's signing secret, a chat webhook's URL, an SMTP password. */
  secret: string | null;
  email: EmailSettings | null;
}

/** One owed notification: a transition of an alert (or a receiver's test), to one receiver. */
interface OwedDelivery {
  id: string;
  transition: DeliveryTransition;
  alert: Alert;
}

/** What a channel sends with: the HTTP client, the courier's clock, the operators' SMTP CA. */
export interface ChannelContext {
  post: typeof fetch;
  now: Date;
  /** The extra CA for SMTP relays (SCRAPER_SMTP_CA_FILE); null when none is set. */
  smtpCa: string | null;
  /** The console's public URL (STUDIO_CONSOLE_URL): each notification links to its alert there. */
  consoleUrl: string | null;
}

/**
 * How alerts reach one kind of receiver (ADR-0013): a sixth kind is a file beside these and an
 * entry in `ALERT_CHANNELS` (and the contracts' `ALERT_RECEIVER_KINDS`). A send that does not
 * throw is delivered; one that throws is tried again with backoff, its message in the log.
 */
export interface AlertChannel<K extends AlertReceiverKind = AlertReceiverKind> {
  readonly kind: K;
  send(receiver: ReceiverTarget, delivery: OwedDelivery, context: ChannelContext): Promise<void>;
  /**
   * For a receiver that forgets an alert it is not told about again (Alertmanager): the firing
   * alerts it was told of, posted again every `everyMs`, so they never lapse there while Studio runs.
   */
  readonly resend?: {
    everyMs: number;
    send(receiver: ReceiverTarget, firing: readonly Alert[], context: ChannelContext): Promise<void>;
  };
}

/** The opened secret of a receiver that needs one, or why it cannot be sent to. */
export function secretOf(receiver: ReceiverTarget): string {
  if (receiver.secret === null) throw new Error(`receiver ${receiver.id} has no sealed secret`);
  return receiver.secret;
}
