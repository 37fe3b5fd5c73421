import { buckets } from '@artemis-studio/contracts';
import { testBus } from '../bus';

/**
 * Every suite starts on a NATS where no other installation of Studio is present, as on a fresh
 * machine. Suites run installations of their own (each database is one), and a process an earlier
 * suite killed leaves its presence in `studio_members` until its TTL lapses: without this, the
 * next suite's services would rightly wait it out (ADR-0031, up to 20 s) and time out their start.
 */
beforeAll(async () => {
  const bus = testBus('test-harness');
  try {
    await bus.ready();
    const members = await bus.kv(buckets.members);
    for (const key of await members.keys()) await members.delete(key);
  } finally {
    await bus.close();
  }
});
