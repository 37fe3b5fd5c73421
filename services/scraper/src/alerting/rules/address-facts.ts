import type { AddressObservation } from '../../addresses/address-observation';
import type { AddressSizeSample } from '../../addresses/address-sample.repository';
import type { NodeTierB } from '../../polling/tier-b';
import { secondsUntil, Trend } from './trend';

/** An address as the rules see it: over the live nodes, each of which pages on its own. */
export interface AddressFact {
  name: string;
  /** Bytes held in memory, summed over the nodes. */
  sizeBytes: number;
  /** Paging on any node. */
  paging: boolean;
  /** Page files, summed over the nodes. */
  pages: number;
  /** The fullest node's fraction of its limit; null when no node says. */
  limitFraction: number | null;
  /**
   * Seconds until the first node's address reaches its limit at the rate it grew over the trend
   * window: 0 once paging, Infinity when it does not grow, null when not known (too few samples,
   * or a limit the broker's whole percent cannot place: under 1%).
   */
  secondsUntilFull: number | null;
  /** A node listed it and could not read it: every figure is unknown. */
  stale?: boolean;
}

/**
 * The address's limit in bytes, from its size and the whole percent the broker gives
 * (`AddressLimitPercent` is rounded down): the middle of the range that percent stands for. Under
 * 1% the limit could be anything above a hundred times the size: unknown.
 */
const limitBytesOf = (a: AddressObservation): number | null => {
  const percent = a.limitFraction === null ? 0 : Math.round(a.limitFraction * 100);
  return percent >= 1 && a.sizeBytes > 0 ? (a.sizeBytes * 100) / (percent + 0.5) : null;
};

function forecast(a: AddressObservation, trend: Trend): number | null {
  if (a.paging) return 0;
  const perSecond = trend.perSecond();
  if (perSecond !== null && perSecond <= 0) return Infinity;
  const limit = limitBytesOf(a);
  return limit === null ? null : secondsUntil(a.sizeBytes, limit, perSecond);
}

/** The first to fill decides; an unknown one makes the answer unknown unless another is already full. */
const sooner = (a: number | null, b: number | null): number | null =>
  a === 0 || b === 0 ? 0 : a === null || b === null ? null : Math.min(a, b);

/**
 * Each address of a tick over the nodes that hold it, with its forecast from the size samples this
 * keeps per node (each node's paging store fills on its own).
 */
export class AddressFactBuilder {
  private trends = new Map<string, Map<string, Trend>>();
  private built = false;

  /** Nothing built yet: the samples stored before (by this owner or the last) can start the trends. */
  get fresh(): boolean {
    return !this.built;
  }

  /**
   * Starts the trends from earlier samples, oldest first: a forecast is then known at the first tick
   * after a takeover or a new rule, instead of three ticks later.
   */
  seed(samples: readonly AddressSizeSample[]): void {
    for (const s of samples) {
      let node = this.trends.get(s.nodeId);
      if (!node) this.trends.set(s.nodeId, (node = new Map()));
      let trend = node.get(s.address);
      if (!trend) node.set(s.address, (trend = new Trend()));
      trend.add(s.atMs, s.sizeBytes);
    }
  }

  build(nodes: readonly NodeTierB[], now: Date): Map<string, AddressFact> {
    this.built = true;
    const at = now.getTime();
    const next = new Map<string, Map<string, Trend>>();
    const facts = new Map<string, AddressFact>();
    for (const node of nodes) {
      const before = this.trends.get(node.nodeId);
      // Not read this tick: its samples wait for the next (the evaluation knows no address then).
      if (node.addresses === null) {
        if (before) next.set(node.nodeId, before);
        continue;
      }
      const kept = new Map<string, Trend>();
      next.set(node.nodeId, kept);
      for (const a of node.addresses.addresses) {
        const trend = before?.get(a.name) ?? new Trend();
        trend.add(at, a.sizeBytes);
        kept.set(a.name, trend);
        const own: AddressFact = {
          name: a.name,
          sizeBytes: a.sizeBytes,
          paging: a.paging,
          pages: a.pages,
          limitFraction: a.limitFraction,
          secondsUntilFull: forecast(a, trend),
        };
        const sum = facts.get(a.name);
        if (!sum) {
          facts.set(a.name, own);
          continue;
        }
        sum.sizeBytes += own.sizeBytes;
        sum.paging ||= own.paging;
        sum.pages += own.pages;
        sum.limitFraction =
          sum.limitFraction === null || own.limitFraction === null
            ? (sum.limitFraction ?? own.limitFraction)
            : Math.max(sum.limitFraction, own.limitFraction);
        sum.secondsUntilFull = sooner(sum.secondsUntilFull, own.secondsUntilFull);
      }
      for (const name of node.addresses.unread) {
        const trend = before?.get(name);
        if (trend) kept.set(name, trend);
        const fact = facts.get(name);
        if (fact) fact.stale = true;
        else facts.set(name, staleAddress(name));
      }
    }
    this.trends = next;
    return facts;
  }
}

const staleAddress = (name: string): AddressFact => ({
  name,
  sizeBytes: 0,
  paging: false,
  pages: 0,
  limitFraction: null,
  secondsUntilFull: null,
  stale: true,
});
