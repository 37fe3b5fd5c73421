export { testConfig, testDatabaseUrl } from './config';
export { createTestDatabase } from './database';
export type { TestDatabase } from './database';
export { artemis, brokerProfile, startBroker } from './broker';
export type { BrokerProfile } from './broker';
export { waitFor } from './wait';
export {
  expectServiceToRefuseEnvironment,
  expectServiceToServe,
  expectServiceToStopWhileStarting,
  startService,
} from './service';
export type { RunningService } from './service';
export { brokerCluster, declareLive, insertCluster, insertReceiver } from './clusters';
export { writeQueueHours } from './queue-hours';
export { serviceNodeFlags, spawnService } from './process';
export { killOnExit } from './children';
export type { ServiceProcess } from './process';
export { cleanStream, followRawEvents } from './stream';
export { TcpProxy } from './tcp-proxy';
export {
  startPrivateNats,
  startPrivateNatsCluster,
  type PrivateNats,
  type PrivateNatsCluster,
} from './private-nats';
export { openStream } from './sse';
export { testBus } from './bus';
export { openAmqpClient } from './amqp';
export { deadLetter } from './dead-letters';
export {
  brokerExec,
  brokerJolokia,
  depthOf,
  drainQueue,
  errorOf,
  fillQueue,
  queueMbean,
} from './broker-messages';
export { rawBrokerEvent } from './events';
export { notificationQueues } from './notification-rings';
export { churnConsumers, consumerEventsOf } from './churn';
export { TEST_ADMIN_PASSWORD, registerLiveBroker, signIn, signInAs, sessionFrom } from './access';
export type { ApiSession } from './access';
export { startIdentityProvider } from './oidc';
export { startAlertmanager } from './alertmanager';
export type { TestAlertmanager } from './alertmanager';
export { startSmtpServer } from './smtp';
export type { TestSmtpServer } from './smtp';
export type { TestIdentityProvider } from './oidc';
export { JOLOKIA_RECORDING_PATH, JolokiaSimulator, jolokiaRecording } from './jolokia-simulator';
export type { JolokiaRecording, RecordedAnswer } from './jolokia-simulator';
export { seeded } from './seeded';
export { outranking, replicaPair } from './replica-names';
export { NotificationSimulator } from './notification-simulator';
export { NOTIFICATION_RECORDING_PATH, notificationRecording } from './notification-recording';
export type { NotificationRecording, RecordedNotification } from './notification-recording';
