import { SETTINGS, type Setting } from '@artemis-studio/contracts';
import { watchdogWindowMs } from './stream/watchdog';

/**
 * The runtime settings the console itself depends on, as last read from the gateway (the settings
 * query keeps them current); the contracts' defaults until then.
 */
export class ConsoleSettings {
  private heartbeatMs: number = SETTINGS['artemis-studio.stream.heartbeat-millis'].default;
  private floorMs: number = SETTINGS['artemis-studio.console.poll-floor-millis'].default;

  apply(settings: readonly Setting[]): void {
    for (const s of settings) {
      if (s.key === 'artemis-studio.stream.heartbeat-millis') this.heartbeatMs = s.value;
      if (s.key === 'artemis-studio.console.poll-floor-millis') this.floorMs = s.value;
    }
  }

  watchdogMs = (): number => watchdogWindowMs(this.heartbeatMs);
  pollFloorMs = (): number => this.floorMs;
}
