import { Bus } from '@artemis-studio/bus';
import { channels, subjects, type SignalTopic } from '@artemis-studio/contracts';
import { BUS } from './bus.provider';
import { Inject, Injectable } from '@nestjs/common';

/** Publishes a cluster's signals: "refetch this topic" (ADR-0018). */
@Injectable()
export class SignalPublisher {
  constructor(@Inject(BUS) private readonly bus: Bus) {}

  signal(clusterId: string, topic: SignalTopic): void {
    this.bus.publish(channels.signal, subjects.signal(clusterId, topic), {
      topic,
      clusterId,
      ts: new Date().toISOString(),
    });
  }
}
