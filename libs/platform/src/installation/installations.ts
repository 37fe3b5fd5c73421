import type { TypedKv } from '@artemis-studio/bus';
import type { Member } from '@artemis-studio/contracts';

/** A presence expired this long ago is a process that was killed: removed by whoever lists it. */
const FORGET_AFTER_MS = 5 * 60_000;

/** The service name a presence is kept under in `studio_members`, beside the owners' membership. */
export const presenceService = (service: string): string => `${service}-presence`;

/** Another installation found present on the same NATS. */
export interface OtherInstallation {
  installation: string;
  /** Where it keeps its state, as it says (host and database), when it says. */
  database: string | null;
  /** What of it is present: services and the owners' memberships, by name. */
  services: string[];
  /** Each of its live entries' `expiresAt`, by key: they move on while the installation is running. */
  expiries: Record<string, number>;
}

/**
 * Whether an installation seen in `before` has renewed an entry since: it is running, not a
 * process stopped a moment ago whose entries are only waiting to lapse. Entry by entry: comparing
 * the latest expiry of each listing took a later entry that one listing missed (a stopped stack
 * leaves several, and a listing of the bucket need not return them all) for a renewal, and
 * refused to start beside an installation that had already gone.
 */
export function renewedSince(before: OtherInstallation[], now: OtherInstallation[]): boolean {
  return now.some((o) => {
    const earlier = before.find((b) => b.installation === o.installation)?.expiries ?? {};
    return Object.entries(o.expiries).some(([key, expiry]) => expiry > (earlier[key] ?? Infinity));
  });
}

/**
 * The installations other than `installation` with a member or a presence alive at `now` in
 * `studio_members` (keys `<service>.<installation>.<replica>`).
 */
export async function installationsBesides(
  kv: Pick<TypedKv<Member>, 'keys' | 'get' | 'delete'>,
  installation: string,
  now: number,
): Promise<OtherInstallation[]> {
  const found = new Map<string, OtherInstallation>();
  for (const key of new Set(await kv.keys())) {
    const [service, other] = key.split('.', 2);
    if (!other || other === installation) continue;
    const entry = await kv.get(key);
    if (!entry) continue;
    const expiresAt = Date.parse(entry.value.expiresAt);
    if (expiresAt <= now) {
      // A process killed long ago left it: forgotten by whoever sees it, as members are.
      if (expiresAt + FORGET_AFTER_MS < now && key.split('.', 1)[0]!.endsWith('-presence'))
        await kv.delete(key).catch(() => undefined);
      continue;
    }
    const seen = found.get(other) ?? { installation: other, database: null, services: [], expiries: {} };
    seen.database ??= entry.value.database ?? null;
    seen.expiries[key] = expiresAt;
    const name = service.replace(/-presence$/, '');
    if (!seen.services.includes(name)) seen.services.push(name);
    found.set(other, seen);
  }
  return [...found.values()].map((o) => ({ ...o, services: o.services.sort() }));
}
