import type { StoredBrokerEvent } from '@artemis-studio/contracts';
import type { Pending } from '../intake/intake-buffer';

/**
 * The body published on `event.stored`: the raw event's JSON as it arrived (validated on receipt)
 * with its seq and its cluster's previous seq added, so that storing an event costs no second
 * encoding. Keys the raw event carried beyond its schema travel on; receivers validate and ignore
 * them. A raw body that already names a `seq` is encoded afresh, so the stored body never holds two.
 */
export function storedEventJson({ event, delivery }: Pending, seq: number, prevSeq: number): string {
  const json = delivery.json;
  const end = json.lastIndexOf('}');
  if (end < 0 || json.includes('"seq"') || json.includes('"prevSeq"'))
    return JSON.stringify({ ...event, seq, prevSeq } satisfies StoredBrokerEvent);
  return `${json.slice(0, end)},"seq":${seq},"prevSeq":${prevSeq}}`;
}
