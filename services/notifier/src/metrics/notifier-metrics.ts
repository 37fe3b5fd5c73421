import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Registry } from 'prom-client';
import type { PublisherMetrics } from '../publishing/event-publisher';

/** Every metric the notifier exports (on /metrics), made once and handed to what counts it. */
@Injectable()
export class NotifierMetrics {
  readonly notifications: Counter<'outcome'>;
  readonly publisher: PublisherMetrics;
  /** The credit gate: how often and how long the brokers were made to hold notifications. */
  readonly credit: { held(): void; released(heldMs: number, overLimit: boolean): void };
  /** Counts a period in which a cluster was not observed; `seconds` is null when its start is unknown. */
  readonly unobserved: (cluster: string, seconds: number | null) => void;
  private subscriptions: () => number = () => 0;

  constructor(registry: Registry) {
    this.notifications = new Counter({
      name: 'studio_notifier_notifications_total',
      help: 'Broker notifications received, by outcome (event, remote, own, malformed)',
      labelNames: ['outcome'],
      registers: [registry],
    });
    const published = new Counter({
      name: 'studio_notifier_events_published_total',
      help: 'Broker events acknowledged by the stream',
      registers: [registry],
    });
    const dropped = new Counter({
      name: 'studio_notifier_events_dropped_total',
      help: 'Broker events dropped because the buffer was full (also reported to the event store)',
      labelNames: ['cluster'],
      registers: [registry],
    });
    const buffered = new Gauge({
      name: 'studio_notifier_events_buffered',
      help: 'Broker events waiting for the stream',
      registers: [registry],
    });
    this.publisher = {
      published: (n) => published.inc(n),
      dropped: (cluster, n) => dropped.inc({ cluster }, n),
      buffered: (n) => buffered.set(n),
    };
    const creditHeld = new Gauge({
      name: 'studio_notifier_credit_held',
      help: '1 while no AMQP credit is granted because the buffer is too full: the brokers hold the notifications',
      registers: [registry],
    });
    const creditHeldSeconds = new Counter({
      name: 'studio_notifier_credit_held_seconds_total',
      help: 'Seconds the brokers were made to hold notifications',
      registers: [registry],
    });
    const holdLimitReached = new Counter({
      name: 'studio_notifier_credit_hold_limit_reached_total',
      help: 'Holds ended by NOTIFIER_HOLD_LIMIT_SECONDS rather than by the stream catching up (drops may follow)',
      registers: [registry],
    });
    this.credit = {
      held: () => creditHeld.set(1),
      released: (heldMs, overLimit) => {
        creditHeld.set(0);
        creditHeldSeconds.inc(heldMs / 1000);
        if (overLimit) holdLimitReached.inc();
      },
    };
    const unobservedPeriods = new Counter({
      name: 'studio_notifier_unobserved_periods_total',
      help: 'Periods in which some live node of a cluster had no notification subscription (its events then may be missing)',
      labelNames: ['cluster'],
      registers: [registry],
    });
    const unobservedSeconds = new Counter({
      name: 'studio_notifier_unobserved_seconds_total',
      help: 'Seconds those periods lasted, where their start was known',
      labelNames: ['cluster'],
      registers: [registry],
    });
    this.unobserved = (cluster, seconds) => {
      unobservedPeriods.inc({ cluster });
      if (seconds !== null) unobservedSeconds.inc({ cluster }, Math.max(0, seconds));
    };
    const subscriptions = () => this.subscriptions();
    new Gauge({
      name: 'studio_notifier_subscriptions',
      help: 'Notification subscriptions currently attached',
      registers: [registry],
      collect() {
        this.set(subscriptions());
      },
    });
  }

  /** What the subscriptions gauge reads when it is scraped: the owner of the subscriptions says. */
  countSubscriptionsWith(count: () => number): void {
    this.subscriptions = count;
  }
}
