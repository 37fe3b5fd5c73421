export { Backoff, jitteredDelay, sleep, withTimeout } from './timing';
