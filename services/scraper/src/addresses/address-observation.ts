import { count, flag, quotedKey, text } from '../jolokia/attribute-values';
import type { JolokiaRequest, JolokiaResponse } from '../jolokia/jolokia-client';

/** One address of one node at one tier-B tick: what its paging store holds. */
export interface AddressObservation {
  name: string;
  /** Bytes of messages the address holds in memory (paged messages are not counted). */
  sizeBytes: number;
  paging: boolean;
  /** Page files on disk. */
  pages: number;
  /**
   * How full the address is against its `max-size-bytes` (1 and above once it pages, blocks or
   * drops). The broker rounds it down to a whole percent, and says 0 for an address without a limit
   * of its own; null when it does not say.
   */
  limitFraction: number | null;
}

/** What one read of a node's addresses gave. */
export interface AddressReading {
  addresses: AddressObservation[];
  /** Listed but not readable this tick (an attribute came back as an error): unknown, not gone. */
  unread: string[];
}

const ADDRESS_ATTRIBUTES = ['Address', 'AddressSize', 'Paging', 'NumberOfPages', 'AddressLimitPercent'];

/** Tier B reads every address with its queues: one more wildcard read in the same bulk request. */
export const ADDRESS_REQUEST: JolokiaRequest = {
  type: 'read',
  mbean: 'org.apache.activemq.artemis:broker=*,component=addresses,address=*',
  attribute: ADDRESS_ATTRIBUTES,
};

/**
 * Reads the wildcard answer: a broker without addresses answers 404 (an empty list). Any other
 * failure throws: the addresses of that node are then unknown this tick, and its queues still count.
 */
export function parseAddresses(answer: JolokiaResponse | undefined): AddressReading {
  if (answer?.status === 404) return { addresses: [], unread: [] };
  if (!answer || answer.status !== 200)
    throw new Error(`address read failed: ${answer?.error ?? 'no answer'}`);
  const reading: AddressReading = { addresses: [], unread: [] };
  for (const [mbean, a] of Object.entries((answer.value ?? {}) as Record<string, Record<string, unknown>>)) {
    const name = text(a.Address) ?? quotedKey(mbean, 'address');
    if (name === null) continue;
    const sizeBytes = count(a.AddressSize);
    const paging = flag(a.Paging);
    const pages = count(a.NumberOfPages);
    if (sizeBytes === null || paging === null || pages === null) {
      reading.unread.push(name);
      continue;
    }
    const percent = count(a.AddressLimitPercent);
    reading.addresses.push({
      name,
      sizeBytes: Math.max(0, sizeBytes),
      paging,
      pages,
      limitFraction: percent !== null && percent >= 0 ? percent / 100 : null,
    });
  }
  return reading;
}
