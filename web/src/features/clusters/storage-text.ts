import type { Topology } from '@artemis-studio/contracts';
import { formatBytes } from '../../lib/ui/format';

type Storage = Topology['nodes'][number]['storage'];

const percent = (fraction: number) => `${Math.round(fraction * 100)}%`;

/** "69% (blocks at 90%)": how full the journal's disk is, against where the broker blocks producers. */
export function diskText({ diskUsage, diskLimit }: Storage): string {
  if (diskUsage === null) return '—';
  return diskLimit === null ? percent(diskUsage) : `${percent(diskUsage)} (blocks at ${percent(diskLimit)})`;
}

/** "47 MB of 256 MB": memory held by addresses, against the limit past which they page or block. */
export function memoryText({ memoryBytes, memoryLimitBytes }: Storage): string {
  if (memoryBytes === null) return '—';
  return memoryLimitBytes === null
    ? formatBytes(memoryBytes)
    : `${formatBytes(memoryBytes)} of ${formatBytes(memoryLimitBytes)}`;
}

/** Close enough to the limit to be said in colour: within a tenth of it. */
export const nearLimit = (used: number | null, limit: number | null): boolean =>
  used !== null && limit !== null && limit > 0 && used >= limit * 0.9;
