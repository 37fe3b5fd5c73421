import type { BucketDef } from '@artemis-studio/contracts';
import type { KV } from 'nats';
import type { KvEntry, Stoppable, TypedKv } from './bus';
import { decode, encode } from './codec';
import { JS_ERRORS, jsErrorCode } from './jetstream';
import type { BusReporter } from './reporter';

/** A KV bucket whose values are validated against the bucket's schema, both ways. */
export class NatsTypedKv<V> implements TypedKv<V> {
  constructor(
    private readonly store: KV,
    private readonly bucket: BucketDef,
    private readonly reporter: BusReporter,
  ) {}

  async get(key: string): Promise<KvEntry<V> | null> {
    const entry = await this.store.get(key);
    if (!entry || entry.operation !== 'PUT') return null;
    const value = this.decodeValue(key, entry.value);
    return value === undefined ? null : { key, value, revision: entry.revision };
  }

  put(key: string, value: V): Promise<number> {
    return this.store.put(key, encode(this.bucket.schema, value, `${this.bucket.name} value`));
  }

  async create(key: string, value: V): Promise<number | null> {
    try {
      return await this.store.create(key, encode(this.bucket.schema, value, `${this.bucket.name} value`));
    } catch (err) {
      if (jsErrorCode(err) === JS_ERRORS.wrongLastSequence) return null;
      throw err;
    }
  }

  async update(key: string, value: V, revision: number): Promise<number | null> {
    try {
      return await this.store.update(
        key,
        encode(this.bucket.schema, value, `${this.bucket.name} value`),
        revision,
      );
    } catch (err) {
      if (jsErrorCode(err) === JS_ERRORS.wrongLastSequence) return null;
      throw err;
    }
  }

  delete(key: string): Promise<void> {
    return this.store.delete(key);
  }

  async keys(): Promise<string[]> {
    const keys: string[] = [];
    for await (const key of await this.store.keys()) keys.push(key);
    return keys;
  }

  watch(handler: (key: string, value: V | null) => void): Stoppable {
    let iterator: { stop(): void } | undefined;
    let stopped = false;
    const running = (async () => {
      const updates = await this.store.watch();
      iterator = updates;
      if (stopped) updates.stop();
      for await (const entry of updates) {
        if (entry.operation !== 'PUT') {
          handler(entry.key, null);
          continue;
        }
        const value = this.decodeValue(entry.key, entry.value);
        if (value !== undefined) handler(entry.key, value);
      }
    })();
    running.catch((err) =>
      this.reporter.log.warn(`bus: watch of ${this.bucket.name} ended: ${(err as Error).message}`),
    );
    return {
      stop: async () => {
        stopped = true;
        iterator?.stop();
        await running.catch(() => undefined);
      },
    };
  }

  private decodeValue(key: string, data: Uint8Array): V | undefined {
    const decoded = decode(this.bucket.schema, data);
    if (decoded.ok) return decoded.value as V;
    this.reporter.metrics.malformed(this.bucket.name);
    this.reporter.log.warn(`bus: skipped a malformed ${this.bucket.name} value at ${key}: ${decoded.reason}`);
    return undefined;
  }
}
