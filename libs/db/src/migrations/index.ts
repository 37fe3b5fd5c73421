import { InitialSchema1764400000000 } from './1764400000000-initial-schema';
import { EventDrops1764500000000 } from './1764500000000-event-drops';
import { QueueRates1764600000000 } from './1764600000000-queue-rates';
import { DropPeriod1764610000000 } from './1764610000000-drop-period';
import { NodeSamples1764620000000 } from './1764620000000-node-samples';
import { Access1764700000000 } from './1764700000000-access';
import { BrokerActions1764800000000 } from './1764800000000-broker-actions';
import { MessageJobs1764900000000 } from './1764900000000-message-jobs';
import { MessageAccess1764910000000 } from './1764910000000-message-access';
import { AlertInputs1764920000000 } from './1764920000000-alert-inputs';
import { Alerting1764930000000 } from './1764930000000-alerting';
import { AlertReceiverEmail1764940000000 } from './1764940000000-alert-receiver-email';
import { AddressSamples1764950000000 } from './1764950000000-address-samples';
import { AlertFigureSamples1764960000000 } from './1764960000000-alert-figure-samples';
import { NodeRoleHistory1764970000000 } from './1764970000000-node-role-history';
import { ClusterNotificationRing1764980000000 } from './1764980000000-cluster-notification-ring';
import { StudioInstallation1764990000000 } from './1764990000000-studio-installation';
import { ChangeDrivenQueueSamples1765000000000 } from './1765000000000-change-driven-queue-samples';
import { NodeRollups1765100000000 } from './1765100000000-node-rollups';
import { HourlyHistory1765200000000 } from './1765200000000-hourly-history';
import { ChangeDrivenAddressSamples1765300000000 } from './1765300000000-change-driven-address-samples';
import { QueueSnapshotRoomToUpdate1765400000000 } from './1765400000000-queue-snapshot-room-to-update';
import { BrokerEventDays1765500000000 } from './1765500000000-broker-event-days';
import { EvaluationPerTier1765600000000 } from './1765600000000-evaluation-per-tier';
import { ClusterLinks1765700000000 } from './1765700000000-cluster-links';
import { MessageJobToNode1765800000000 } from './1765800000000-message-job-to-node';
import { FleetEvaluation1765900000000 } from './1765900000000-fleet-evaluation';
import { CoreBridges1766000000000 } from './1766000000000-core-bridges';
import { BrokerConnections1766100000000 } from './1766100000000-broker-connections';
import { FederationsAndMirrors1766200000000 } from './1766200000000-federations-and-mirrors';
import { PacedMessageJobs1766300000000 } from './1766300000000-paced-message-jobs';
import { BodyFilteredMessageJobs1766400000000 } from './1766400000000-body-filtered-message-jobs';
import { ReceiverMatchers1766700000000 } from './1766700000000-receiver-matchers';
import { QueueHours1766800000000 } from './1766800000000-queue-hours';
import { ProtectedSubjects1766900000000 } from './1766900000000-protected-subjects';
import { UnmaskedWindows1767000000000 } from './1767000000000-unmasked-windows';
import { ResumableMessageJobs1766600000000 } from './1766600000000-resumable-message-jobs';
import { ReceiverTestNotifications1766500000000 } from './1766500000000-receiver-test-notifications';

/** Every migration, in order. A new migration is added here and nowhere else. */
export const MIGRATIONS = [
  InitialSchema1764400000000,
  EventDrops1764500000000,
  QueueRates1764600000000,
  DropPeriod1764610000000,
  NodeSamples1764620000000,
  Access1764700000000,
  BrokerActions1764800000000,
  MessageJobs1764900000000,
  MessageAccess1764910000000,
  AlertInputs1764920000000,
  Alerting1764930000000,
  AlertReceiverEmail1764940000000,
  AddressSamples1764950000000,
  AlertFigureSamples1764960000000,
  NodeRoleHistory1764970000000,
  ClusterNotificationRing1764980000000,
  StudioInstallation1764990000000,
  ChangeDrivenQueueSamples1765000000000,
  NodeRollups1765100000000,
  HourlyHistory1765200000000,
  ChangeDrivenAddressSamples1765300000000,
  QueueSnapshotRoomToUpdate1765400000000,
  BrokerEventDays1765500000000,
  EvaluationPerTier1765600000000,
  ClusterLinks1765700000000,
  MessageJobToNode1765800000000,
  FleetEvaluation1765900000000,
  CoreBridges1766000000000,
  BrokerConnections1766100000000,
  FederationsAndMirrors1766200000000,
  PacedMessageJobs1766300000000,
  BodyFilteredMessageJobs1766400000000,
  ReceiverTestNotifications1766500000000,
  ResumableMessageJobs1766600000000,
  ReceiverMatchers1766700000000,
  QueueHours1766800000000,
  ProtectedSubjects1766900000000,
  UnmaskedWindows1767000000000,
];
