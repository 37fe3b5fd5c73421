import { NatsBus } from '@artemis-studio/bus';
import { testConfig } from './config';

/** A bus on the test NATS that keeps quiet: tests assert on counters, not on log lines. */
export function testBus(name: string): NatsBus {
  return new NatsBus({ servers: testConfig.natsUrl, name, log: { warn() {}, error() {} } });
}
