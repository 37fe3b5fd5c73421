import { z } from 'zod';

export const Uuid = z.uuid();
/** Instants cross every boundary as ISO-8601 strings (UTC or with an offset). */
export const Instant = z.iso.datetime({ offset: true });
/** Non-empty trimmed text of bounded length: names, reasons, identifiers. */
export const Name = z.string().trim().min(1).max(200);
