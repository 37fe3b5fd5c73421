import { createHmac } from 'node:crypto';
import {
  subjectKindOf,
  type Alert,
  type AlertReceiverKind,
  type AlertState,
  type EmailSettings,
} from '@artemis-studio/contracts';
import { ALERT_SELECT, alertOf, changeOf, rowsOf, type AlertRow } from '@artemis-studio/db';
import type { DataSource } from 'typeorm';
import { emailMessage, slackMessage, teamsMessage } from './notification-shapes';

/** After this many tries a delivery is given up (`failed`): about half an hour of backoff. */
const DELIVERY_ATTEMPTS_MAX = 12;
/** Backoff after the n-th failed try: 2, 4, 8 … seconds, at most 5 minutes. */
export const backoffMs = (attempts: number): number => Math.min(2 ** attempts * 1000, 300_000);
/** How long a claimed delivery is left alone by another claim (a replica taking over meanwhile). */
const CLAIM_MS = 30_000;
const SEND_TIMEOUT_MS = 5_000;
/**
 * Alertmanager ends an alert it is not told about again within its `endsAt`: firing alerts are
 * posted again every minute with an `endsAt` five minutes ahead, so a Studio that stops (rather than
 * resolves) lets them end on their own, and a live one never lets them lapse.
 */
const ALERTMANAGER_REFRESH_MS = 60_000;
const ALERTMANAGER_ENDS_AFTER_MS = 5 * 60_000;

export interface ReceiverTarget {
  id: string;
  kind: AlertReceiverKind;
  url: string;
  /** Opened: a webhook's signing secret, a chat webhook's URL, an SMTP password. */
  secret: string | null;
  email: EmailSettings | null;
}

interface ClaimedDelivery {
  id: string;
  receiver_id: string | null;
  transition: AlertState;
  payload: Alert;
  attempts: number;
  created_at: Date;
}

export interface AlertCourierDeps {
  db: Pick<DataSource, 'query'>;
  /** The cluster's enabled receivers, secrets opened. */
  receivers: (clusterId: string, ids: readonly string[]) => Promise<Map<string, ReceiverTarget>>;
  /** Publishes one transition on NATS and waits until the server has it. */
  publish: (clusterId: string, state: AlertState, at: Date, alert: Alert) => Promise<void>;
  post: typeof fetch;
  /** Sends one email to an email receiver (alerting/email-sender.ts). */
  mail: (receiver: ReceiverTarget, message: { subject: string; text: string }) => Promise<void>;
  delivered: (outcome: 'delivered' | 'retry' | 'failed') => void;
  log: { warn: (message: string) => void };
  now?: () => Date;
}

/** The labels Alertmanager routes, groups and silences by. */
export function alertmanagerAlert(alert: Alert, now: Date) {
  return {
    labels: {
      ...alert.labels,
      alertname: alert.ruleName,
      cluster: alert.clusterName,
      severity: alert.severity,
      kind: alert.kind,
      [subjectKindOf(alert.kind)]: alert.subject,
    },
    annotations: { description: alert.description, summary: `${alert.ruleName}: ${alert.subject}` },
    startsAt: alert.firedAt ?? alert.startedAt,
    endsAt:
      alert.state === 'resolved' && alert.endedAt
        ? alert.endedAt
        : new Date(now.getTime() + ALERTMANAGER_ENDS_AFTER_MS).toISOString(),
  };
}

/** `X-Studio-Signature`: HMAC-SHA256 of `{timestamp}.{body}` with the receiver's secret, hex. */
const webhookSignature = (secret: string, timestamp: string, body: string): string =>
  `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

/**
 * Sends a cluster's owed notifications (the `alert_delivery` outbox), in order per alert and
 * receiver (a resolve never overtakes its fire), retrying with backoff and recording each try.
 * Runs on the cluster's owner; a takeover finds what is still owed and sends it.
 */
export class AlertCourier {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private lastRefresh = 0;

  constructor(
    private readonly clusterId: string,
    private readonly deps: AlertCourierDeps,
    private readonly tickMs = 1_000,
  ) {}

  start(): void {
    // Unref'd: the service's own lifecycle keeps the process alive, never this sweep. A courier
    // started while its replica shut down (a lease won in the last renewal) would otherwise hold
    // the process open for good.
    this.timer = setInterval(() => this.kick(), this.tickMs).unref();
    this.kick();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Sends what is due now; a kick while sending runs once more after. */
  kick(): void {
    if (!this.timer) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.round()
      .catch((err: Error) =>
        this.deps.log.warn(`alert deliveries of cluster ${this.clusterId}: ${err.message}`),
      )
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Resolves when the round in progress (if any) is over: for tests and shutdown. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  private async round(): Promise<void> {
    // Before the owed deliveries, never after: a refresh read an alert as firing, and a resolve
    // committed since then must reach Alertmanager after the refresh's post, or the post would
    // make the resolved alert active there again for five minutes.
    if (this.now().getTime() - this.lastRefresh >= ALERTMANAGER_REFRESH_MS) {
      this.lastRefresh = this.now().getTime();
      await this.refreshAlertmanagers();
    }
    for (;;) {
      const claimed = await this.claim();
      if (claimed.length === 0) break;
      const receivers = await this.deps.receivers(
        this.clusterId,
        claimed.flatMap((d) => (d.receiver_id ? [d.receiver_id] : [])),
      );
      for (const delivery of claimed) await this.deliver(delivery, receivers);
    }
  }

  /** The deliveries due now, each the oldest owed to its alert and receiver, held for a while. */
  private async claim(): Promise<ClaimedDelivery[]> {
    const { rows } = await changeOf<ClaimedDelivery>(
      this.deps.db,
      `UPDATE alert_delivery d SET next_attempt_at = now() + $2::int * interval '1 millisecond', attempts = d.attempts + 1
        WHERE d.id IN (
          SELECT x.id FROM alert_delivery x
           WHERE x.cluster_id = $1 AND x.status = 'pending' AND x.next_attempt_at <= now()
             AND NOT EXISTS (SELECT 1 FROM alert_delivery y
                              WHERE y.alert_id = x.alert_id AND y.receiver_id IS NOT DISTINCT FROM x.receiver_id
                                AND y.status = 'pending' AND y.id < x.id)
           ORDER BY x.id LIMIT 50 FOR UPDATE SKIP LOCKED)
        RETURNING d.id, d.receiver_id, d.transition, d.payload, d.attempts, d.created_at`,
      [this.clusterId, CLAIM_MS],
    );
    return rows;
  }

  private async deliver(delivery: ClaimedDelivery, receivers: Map<string, ReceiverTarget>): Promise<void> {
    try {
      if (delivery.receiver_id === null)
        await this.deps.publish(this.clusterId, delivery.transition, delivery.created_at, delivery.payload);
      else {
        const receiver = receivers.get(delivery.receiver_id);
        // Disabled (or deleted, which cascades) since it was owed: nothing to send it to.
        if (!receiver) return await this.settle(delivery, 'failed', 'the receiver is disabled');
        await this.send(receiver, delivery);
      }
      await this.settle(delivery, 'delivered', null);
    } catch (err) {
      const message = (err as Error).message;
      const last = delivery.attempts >= DELIVERY_ATTEMPTS_MAX;
      await this.settle(delivery, last ? 'failed' : 'retry', message);
      if (last)
        this.deps.log.warn(
          `alert delivery ${delivery.id} given up after ${delivery.attempts} tries: ${message}`,
        );
    }
  }

  private async send(receiver: ReceiverTarget, delivery: ClaimedDelivery): Promise<void> {
    const { transition, payload } = delivery;
    switch (receiver.kind) {
      case 'alertmanager':
        return this.postJson(alertmanagerUrl(receiver.url), [alertmanagerAlert(payload, this.now())]);
      case 'slack':
        return this.postJson(this.secretOf(receiver), slackMessage(transition, payload));
      case 'teams':
        return this.postJson(this.secretOf(receiver), teamsMessage(transition, payload));
      case 'email':
        return this.deps.mail(receiver, emailMessage(transition, payload));
      case 'webhook':
        return this.signed(receiver, delivery);
    }
  }

  private secretOf(receiver: ReceiverTarget): string {
    if (receiver.secret === null) throw new Error(`receiver ${receiver.id} has no sealed secret`);
    return receiver.secret;
  }

  private signed(receiver: ReceiverTarget, delivery: ClaimedDelivery): Promise<void> {
    const body = JSON.stringify({
      version: 1,
      deliveryId: delivery.id,
      transition: delivery.transition,
      alert: delivery.payload,
    });
    const timestamp = String(Math.floor(this.now().getTime() / 1000));
    return this.postJson(receiver.url, body, {
      'x-studio-delivery': delivery.id,
      'x-studio-timestamp': timestamp,
      'x-studio-signature': webhookSignature(this.secretOf(receiver), timestamp, body),
    });
  }

  private async postJson(url: string, payload: unknown, headers: Record<string, string> = {}): Promise<void> {
    const response = await this.deps.post(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof payload === 'string' ? payload : JSON.stringify(payload),
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    if (!response.ok) {
      const text = (await response.text().catch(() => '')).slice(0, 200);
      throw new Error(`HTTP ${response.status}${text ? `: ${text}` : ''}`);
    }
  }

  private async settle(
    delivery: ClaimedDelivery,
    outcome: 'delivered' | 'retry' | 'failed',
    error: string | null,
  ) {
    this.deps.delivered(outcome);
    await changeOf(
      this.deps.db,
      outcome === 'retry'
        ? `UPDATE alert_delivery SET last_error = $2, next_attempt_at = now() + $3::int * interval '1 millisecond' WHERE id = $1`
        : `UPDATE alert_delivery SET last_error = $2, status = $3, delivered_at = CASE WHEN $3 = 'delivered' THEN now() END
            WHERE id = $1`,
      [delivery.id, error, outcome === 'retry' ? backoffMs(delivery.attempts) : outcome],
    );
  }

  /** Firing alerts Alertmanager has been told of, posted again so they do not lapse there. */
  private async refreshAlertmanagers(): Promise<void> {
    const targets = await rowsOf<{ receiver_id: string; alert_ids: string[] }>(
      this.deps.db,
      `SELECT d.receiver_id, array_agg(DISTINCT d.alert_id) AS alert_ids
         FROM alert_delivery d JOIN alert a ON a.id = d.alert_id JOIN alert_receiver r ON r.id = d.receiver_id
        WHERE d.cluster_id = $1 AND d.transition = 'firing' AND d.status = 'delivered'
          AND a.state = 'firing' AND r.kind = 'alertmanager' AND r.enabled
        GROUP BY d.receiver_id`,
      [this.clusterId],
    );
    if (targets.length === 0) return;
    const receivers = await this.deps.receivers(
      this.clusterId,
      targets.map((t) => t.receiver_id),
    );
    for (const target of targets) {
      const receiver = receivers.get(target.receiver_id);
      if (!receiver) continue;
      const alerts = (
        await rowsOf<AlertRow>(this.deps.db, `${ALERT_SELECT} WHERE a.id = ANY ($1::uuid[])`, [
          target.alert_ids,
        ])
      )
        .map(alertOf)
        .filter((a) => a.silencedBy === null);
      if (alerts.length === 0) continue;
      await this.postJson(
        alertmanagerUrl(receiver.url),
        alerts.map((a) => alertmanagerAlert(a, this.now())),
      ).catch((err: Error) =>
        this.deps.log.warn(`Alertmanager ${receiver.url} not refreshed: ${err.message}`),
      );
    }
  }
}

const alertmanagerUrl = (base: string) => `${base.replace(/\/+$/, '')}/api/v2/alerts`;
