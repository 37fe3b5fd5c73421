import type { SettingsService, SignalPublisher } from '@artemis-studio/platform';
import type { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { AlertCouriers } from '../delivery/alert-couriers';
import { AlertEvaluationRepository } from './alert-evaluation.repository';
import type { ScopeEvaluationDeps } from './scope-evaluation';

/**
 * What an evaluation on this replica is wired to, the owner's and the fleet's alike: the store, a
 * signal to the console and a kick of the cluster's courier once transitions are committed, the
 * tick settings as they are now, and the log.
 */
export function scopeEvaluationDeps(
  db: DataSource,
  wiring: {
    settings: Pick<SettingsService, 'get'>;
    signals: Pick<SignalPublisher, 'signal'>;
    couriers: Pick<AlertCouriers, 'kick'>;
    logger: Pick<Logger, 'warn'>;
  },
): ScopeEvaluationDeps {
  return {
    store: new AlertEvaluationRepository(db),
    committed: (clusterId, transitions) => {
      if (transitions.length > 0) wiring.signals.signal(clusterId, 'alerts');
      wiring.couriers.kick(clusterId);
    },
    intervals: () => ({
      tierAMs: wiring.settings.get('artemis-studio.scrape.tier-a-millis'),
      tierBMs: wiring.settings.get('artemis-studio.scrape.tier-b-millis'),
    }),
    // An object logs its fields beside `msg` (nestjs-pino): a line can be found by cluster.
    log: { warn: (msg, fields) => wiring.logger.warn(fields ? { ...fields, msg } : msg) },
  };
}
