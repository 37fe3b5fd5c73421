import { ownerRpcs } from '@artemis-studio/contracts';
import type { Provider, Type } from '@nestjs/common';
import { CLUSTER_PARTS, type AnyClusterPart, type OwnerRpcName } from './cluster-part';

type PartClass = Type<AnyClusterPart>;
type ServedBy<P> = P extends Type<{ readonly serves: readonly (infer S)[] }> ? S : never;
/** The owner RPCs no part of the list serves: `never` when the list is complete. */
type Unserved<P extends readonly PartClass[]> = Exclude<OwnerRpcName, ServedBy<P[number]>>;

/**
 * The parts under CLUSTER_PARTS, in the order given. The typecheck fails while an owner RPC
 * (`ownerRpcs`) is served by none of them; the start fails when one is served by two.
 */
export function clusterParts<const P extends readonly PartClass[]>(
  parts: P & ([Unserved<P>] extends [never] ? unknown : { 'owner RPCs no part serves': Unserved<P> }),
): Provider {
  return {
    provide: CLUSTER_PARTS,
    inject: [...parts],
    useFactory: (...instances: AnyClusterPart[]) => {
      checkServed(instances);
      return instances;
    },
  };
}

/** Every owner RPC served by exactly one part (the typecheck sees only that each is served). */
export function checkServed(parts: readonly Pick<AnyClusterPart, 'serves'>[]): void {
  const servedBy = new Map<string, number>();
  for (const part of parts) for (const name of part.serves) servedBy.set(name, (servedBy.get(name) ?? 0) + 1);
  const problems = Object.keys(ownerRpcs).flatMap((name) => {
    const count = servedBy.get(name) ?? 0;
    return count === 1 ? [] : [`${name} is served by ${count} parts`];
  });
  if (problems.length) throw new Error(`the scraper's parts: ${problems.join('; ')}`);
}
