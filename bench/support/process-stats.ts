import { readFileSync } from 'node:fs';

/** CPU time a process has used so far (user + system), in ms; `/proc` counts in ticks of 10 ms. */
export function cpuMsOf(pid: number): number {
  const { user, system } = cpuSplitOf(pid);
  return user + system;
}

/** CPU time a process has used so far in its own code and in the kernel on its behalf, in ms. */
export function cpuSplitOf(pid: number): { user: number; system: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { user: (Number(fields[11]) * 1000) / 100, system: (Number(fields[12]) * 1000) / 100 };
}

/** The most resident memory a process has held (VmHWM), in MB. */
export function peakMemoryMb(pid: number): number {
  return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
}

/**
 * CPU time the whole machine has spent busy so far, all cores, in ms: user, nice, system, irq,
 * softirq and steal (wanted, and given to another guest). Not idle or I/O wait; not the guest
 * columns, which user already counts.
 */
export function machineBusyMs(): number {
  const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return ((user + nice + system + irq + softirq + (steal ?? 0)) * 1000) / 100;
}
