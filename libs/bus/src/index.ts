export * from './bus';
export { NatsBus } from './nats-bus';
export { InMemoryKv } from './in-memory-kv';
