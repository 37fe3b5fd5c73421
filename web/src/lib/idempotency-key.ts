/**
 * A new Idempotency-Key for one action. `crypto.randomUUID` exists only in secure contexts (HTTPS
 * or localhost): a console served over plain HTTP on an internal host would fail there, so the key
 * is made from `getRandomValues`, which every context has. 128 random bits, as hex.
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
