import { ParseUUIDPipe } from '@nestjs/common';
import { DomainError } from '../domain-error';

/** A path parameter that must be an id: anything else is a 400, not a database error. */
export const Id = new ParseUUIDPipe({
  exceptionFactory: () => new DomainError('invalid', 'INVALID_ID', 'not an id (a UUID)'),
});

export const lastAdministrator = () =>
  new DomainError(
    'conflict',
    'LAST_ADMINISTRATOR',
    'this would leave no administrator: grant admin on * to someone else first',
  );
