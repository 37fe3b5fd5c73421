import { InitialSchema1764400000000 } from './1764400000000-initial-schema';

/** Every migration, in order. A new migration is added here and nowhere else. */
export const MIGRATIONS = [InitialSchema1764400000000];
