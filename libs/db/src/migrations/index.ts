import { InitialSchema1764400000000 } from './1764400000000-initial-schema';
import { EventDrops1764500000000 } from './1764500000000-event-drops';

/** Every migration, in order. A new migration is added here and nowhere else. */
export const MIGRATIONS = [InitialSchema1764400000000, EventDrops1764500000000];
