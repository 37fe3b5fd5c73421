import type { UnobservedPeriod } from '@artemis-studio/contracts';
import { Injectable, Logger } from '@nestjs/common';
import { NotifierMetrics } from '../metrics/notifier-metrics';
import { EventPublisher, type Receipt } from '../publishing/event-publisher';
import { TopicCoalescer } from '../signals/topic-coalescer';
import { normaliseNotification } from './broker-event.normaliser';
import { derivedTopics } from './derived-topics';
import { unobservedEvent } from './unobserved-event';

/**
 * Where a notification goes: normalised to a broker event (or counted as remote, our own, or
 * malformed and skipped), queued for the stream, and touching the coalesced signals of the views
 * it made stale.
 */
@Injectable()
export class NotificationRouter {
  private readonly logger = new Logger('Notifications');

  constructor(
    private readonly metrics: NotifierMetrics,
    private readonly publisher: EventPublisher,
    private readonly coalescer: TopicCoalescer,
  ) {}

  /** `receipt` is accepted once the event is on the stream (or counted as dropped), or at once when no event comes of it. */
  route(
    clusterId: string,
    node: string,
    properties: Record<string, unknown> | undefined,
    receipt?: Receipt,
  ): void {
    const result = normaliseNotification(properties, clusterId, node, new Date());
    this.metrics.notifications.inc({ outcome: result.kind });
    if (result.kind !== 'event') receipt?.accept();
    if (result.kind === 'malformed') {
      this.logger.warn({
        clusterId,
        node,
        msg: `skipped a malformed notification from ${node}: ${result.reason}`,
      });
      return;
    }
    if (result.kind !== 'event') return;
    this.publisher.enqueue(result.event, result.json, receipt);
    for (const topic of derivedTopics(result.event.type)) this.coalescer.touch(clusterId, topic);
  }

  /** Records a period in which the cluster's notifications were not observed: stored and streamed as an event. */
  unobserved(clusterId: string, nodes: string[], period: UnobservedPeriod): void {
    const seconds = period.from ? (Date.parse(period.until) - Date.parse(period.from)) / 1000 : null;
    this.metrics.unobserved(clusterId, seconds);
    this.logger.warn({
      clusterId,
      msg:
        `notifications not observed ${period.from ? `for ${seconds!.toFixed(1)} s from ${period.from}` : 'before'} ` +
        `until ${period.until}: ${period.reason}`,
    });
    this.publisher.enqueueUnobserved(unobservedEvent(clusterId, nodes, period));
  }
}
