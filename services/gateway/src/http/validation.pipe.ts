import { ParseUUIDPipe, PipeTransform } from '@nestjs/common';
import { z } from 'zod';
import { DomainError } from '../domain-error';

/** Where in `value` a string holds a NUL character, which PostgreSQL text cannot store. */
function nulAt(value: unknown, path: string[] = []): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path.join('.') || '(value)' : null;
  if (value && typeof value === 'object')
    for (const [key, inner] of Object.entries(value)) {
      const found = nulAt(inner, [...path, key]);
      if (found) return found;
    }
  return null;
}

/** Validates input against its contract schema; anything else is invalid, naming each problem. */
export function validate<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const nul = nulAt(value);
  if (nul !== null)
    throw new DomainError(
      'invalid',
      'VALIDATION_FAILED',
      `invalid ${what}: ${nul}: text may not contain NUL characters`,
      [{ path: nul, message: 'text may not contain NUL characters' }],
    );
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = result.error.issues.map((i) => ({
    path: i.path.join('.') || '(body)',
    message: i.message,
  }));
  throw new DomainError(
    'invalid',
    'VALIDATION_FAILED',
    `invalid ${what}: ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}`,
    details,
  );
}

/** The one way a handler's query, body or parameter is validated: `@Query(new Valid(Schema, 'what'))`. */
export class Valid<S extends z.ZodType> implements PipeTransform<unknown, z.infer<S>> {
  constructor(
    private readonly schema: S,
    private readonly what: string,
  ) {}

  transform(value: unknown): z.infer<S> {
    return validate(this.schema, value, this.what);
  }
}

/** A queue's or an address's name in a path, as Artemis takes one: any text, bounded. */
export const BrokerName = new Valid(z.string().min(1).max(1000), 'name');

/** `@Param('ruleId', Id)`: a path parameter that must be an id (a UUID), or the request is invalid. */
export const Id = new ParseUUIDPipe({
  exceptionFactory: () => new DomainError('invalid', 'INVALID_ID', 'not an id (a UUID)'),
});
