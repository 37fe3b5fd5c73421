import { tolerateLibraryCloseTimeouts } from '../../services/notifier/src/subscriptions/library-close-timeouts';
import { FAULTS_PROFILE, FaultRig } from './fault-rig';
import { BrokerWatcher, NotificationChurn, notificationsPerCycle } from './notification-churn';

/**
 * The rig of the fault suite and the soak, with its load ready: receiver churn on the broker, an
 * independent subscriber counting what the broker sent, and the notifications one churn cycle
 * makes. Interrupted, the run still takes its processes down (killOnExit runs on exit).
 */
export async function startLoadedRig(progress: (step: string) => void, logDir: string) {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
  // The churn's clients meet the same rhea-promise leak as the notifier when a broker stalls an
  // attach (a failback): without this the suite died in the failback phase.
  tolerateLibraryCloseTimeouts((message) => progress(`  churn: ${message}`));
  const rig = await FaultRig.start(progress, logDir);
  const { broker } = rig;
  const cluster = FAULTS_PROFILE === 'cluster';
  const churn = new NotificationChurn(broker.nodes, broker.user, broker.password, 10, 500, cluster);
  const watcher = new BrokerWatcher(broker.nodes, broker.user, broker.password, cluster);
  progress('calibrating: notifications per attach and detach');
  const perCycle = await notificationsPerCycle(churn, watcher);
  return { rig, churn, watcher, perCycle };
}
