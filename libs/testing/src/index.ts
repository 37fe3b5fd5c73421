export { testConfig, testDatabaseUrl } from './config';
export { createTestDatabase, dropTestDatabase } from './database';
export type { TestDatabase } from './database';
export { artemis, brokerProfile, brokerScript, isBrokerRunning, startBroker } from './broker';
export type { BrokerNode, BrokerProfile } from './broker';
export { waitFor } from './wait';
export { expectServiceToServe, startService } from './service';
export type { RunningService } from './service';
