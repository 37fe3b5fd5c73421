import type { KvEntry, Stoppable, TypedKv } from './bus';

/**
 * A TypedKv in memory with the same compare-and-set semantics as JetStream KV: for unit tests,
 * and the seed of the in-process adapter of a one-process mode.
 */
export class InMemoryKv<V> implements TypedKv<V> {
  private readonly entries = new Map<string, KvEntry<V>>();
  private readonly watchers = new Set<(key: string, value: V | null) => void>();
  private revision = 0;

  async get(key: string): Promise<KvEntry<V> | null> {
    return this.entries.get(key) ?? null;
  }

  async put(key: string, value: V): Promise<number> {
    return this.write(key, value);
  }

  async create(key: string, value: V): Promise<number | null> {
    return this.entries.has(key) ? null : this.write(key, value);
  }

  async update(key: string, value: V, revision: number): Promise<number | null> {
    return this.entries.get(key)?.revision === revision ? this.write(key, value) : null;
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
    this.revision++;
    for (const watcher of this.watchers) watcher(key, null);
  }

  async keys(): Promise<string[]> {
    return [...this.entries.keys()];
  }

  watch(handler: (key: string, value: V | null) => void): Stoppable {
    for (const entry of this.entries.values()) handler(entry.key, entry.value);
    this.watchers.add(handler);
    return { stop: async () => void this.watchers.delete(handler) };
  }

  private write(key: string, value: V): number {
    const revision = ++this.revision;
    this.entries.set(key, { key, value, revision });
    for (const watcher of this.watchers) watcher(key, value);
    return revision;
  }
}
