export * from './bus';
export { NatsBus } from './nats-bus';
export type { NatsBusOptions, BusLog } from './nats-bus';
export { decode, encode } from './codec';
export { InMemoryKv } from './in-memory-kv';
