import type { BrowsedPropertyType } from '@artemis-studio/contracts';
import { types } from 'rhea-promise';

/** Where a decoded AMQP map keeps the type of each of its entries (not enumerable: JSON skips it). */
const ENTRY_TYPES = Symbol('AMQP entry types');

/** rhea's names for the encodings of each AMQP type an application property may have. */
const PROPERTY_TYPES_BY_ENCODING: Record<string, BrowsedPropertyType> = {
  Str8: 'string',
  Str32: 'string',
  Long: 'long',
  SmallLong: 'long',
  Int: 'int',
  SmallInt: 'int',
  Short: 'short',
  Byte: 'byte',
  Boolean: 'boolean',
  True: 'boolean',
  False: 'boolean',
  Double: 'double',
  Float: 'float',
};

let kept = false;

/**
 * Makes rhea keep, beside each decoded AMQP map (application properties, annotations), the type
 * each entry arrived as. Without it an int, a long and a short all decode to the same JavaScript
 * number (amqp/rhea#147, Azure/azure-sdk-for-js#25014), and an export could not put a property
 * back as the application typed it. rhea offers no hook for it and no raw bytes for a message, so
 * its map decoder is wrapped, once per process: the map it returns is unchanged.
 */
export function keepAmqpTypes(): void {
  if (kept) return;
  kept = true;
  const decode = types.unwrap_map_simple.bind(types);
  types.unwrap_map_simple = (section: { value: { value: unknown; type?: { name?: string } }[] }) => {
    const map = decode(section) as Record<string, unknown>;
    const entries: Record<string, string> = {};
    for (let i = 0; i + 1 < section.value.length; i += 2)
      entries[String(section.value[i].value)] = section.value[i + 1].type?.name ?? '';
    Object.defineProperty(map, ENTRY_TYPES, { value: entries, enumerable: false });
    return map;
  };
}

/** A decoded map's entries with the property type each arrived as; null for one no property can be. */
export function typedEntries(
  map: Record<string, unknown> | undefined,
): { name: string; type: BrowsedPropertyType | null; value: unknown }[] {
  if (!map) return [];
  const encodings = (map as { [ENTRY_TYPES]?: Record<string, string> })[ENTRY_TYPES] ?? {};
  return Object.entries(map).map(([name, value]) => ({
    name,
    type: PROPERTY_TYPES_BY_ENCODING[encodings[name]] ?? null,
    value,
  }));
}

/**
 * A property's value as text: a long past 2^53 arrives from rhea as its 8 bytes, read exactly here;
 * one rhea made a number is exact up to 2^53.
 */
export function valueText(value: unknown): string {
  if (Buffer.isBuffer(value) && value.length === 8) return value.readBigInt64BE().toString();
  if (value instanceof Date) return value.toISOString();
  return typeof value === 'string' ? value : JSON.stringify(value);
}
