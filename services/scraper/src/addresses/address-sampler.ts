import { SAMPLE_HEARTBEAT_MS } from '@artemis-studio/db';
import type { AddressObservation, AddressReading } from './address-observation';

/** A row of `address_sample`: an address's figures at a tick, or (ended) where they stop holding. */
export interface AddressSampleRow extends AddressObservation {
  ended: boolean;
}

/** An address's last sample on a node, as the history holds it. */
export interface OpenAddressSample {
  nodeId: string;
  address: AddressObservation;
  sampledAt: Date;
}

/** What one tick writes of one node's addresses; `written` once it is, so the next tick compares with it. */
export interface AddressSamplePlan {
  rows: AddressSampleRow[];
  written(): void;
}

interface Sampled {
  observation: AddressObservation;
  atMs: number;
}

/** A limit as `address_sample` keeps it: a whole percent (the broker rounds it so itself). */
export const limitPercentOf = (a: AddressObservation): number | null =>
  a.limitFraction === null ? null : Math.round(a.limitFraction * 100);

const sameFigures = (a: AddressObservation, b: AddressObservation) =>
  a.sizeBytes === b.sizeBytes &&
  a.pages === b.pages &&
  a.paging === b.paging &&
  limitPercentOf(a) === limitPercentOf(b);

/**
 * Decides which of a cluster's addresses a tick samples (ADR-0022): an address whose figures changed
 * since its last sample, a new one, or one whose heartbeat is due; and an end for each address that
 * stops being known (gone, unread, its node's addresses unread or no longer live). It remembers each
 * node's open samples, starting from those the history holds (the last owner's), so an address
 * removed while no one polled still gets its end.
 */
export class AddressSampler {
  private readonly open = new Map<string, Map<string, Sampled>>();

  constructor(
    history: readonly OpenAddressSample[],
    private readonly heartbeatMs = SAMPLE_HEARTBEAT_MS,
  ) {
    for (const s of history)
      this.nodeOf(s.nodeId).set(s.address.name, { observation: s.address, atMs: s.sampledAt.getTime() });
  }

  /** A node's addresses read at a tick, or (null) not known from it: what to write. */
  plan(nodeId: string, reading: AddressReading | null, at: Date): AddressSamplePlan {
    const before = this.open.get(nodeId) ?? new Map<string, Sampled>();
    const next = new Map<string, Sampled>();
    const rows: AddressSampleRow[] = [];
    const atMs = at.getTime();
    for (const a of reading?.addresses ?? []) {
      const last = before.get(a.name);
      if (last && sameFigures(last.observation, a) && atMs - last.atMs < this.heartbeatMs) {
        next.set(a.name, last);
        continue;
      }
      rows.push({ ...a, ended: false });
      next.set(a.name, { observation: a, atMs });
    }
    for (const [name, last] of before) {
      if (!next.has(name)) rows.push({ ...last.observation, ended: true });
    }
    return { rows, written: () => this.open.set(nodeId, next) };
  }

  private nodeOf(nodeId: string): Map<string, Sampled> {
    let node = this.open.get(nodeId);
    if (!node) this.open.set(nodeId, (node = new Map()));
    return node;
  }
}
