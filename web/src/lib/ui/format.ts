/** "3 d 4 h", "12 min", "40 s": an uptime at a glance. */
export function formatDuration(ms: number | null): string {
  if (ms === null) return '—';
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h} h ${m} min`;
  if (m > 0) return `${m} min`;
  return `${s} s`;
}

// One formatter of each kind, made once: toLocaleString() builds a new one at every call, which
// showed as most of a scroll frame's time in a table of queues (bench/console-queues).
const numbers = new Intl.NumberFormat();
const times = new Intl.DateTimeFormat([], {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hour12: false,
});
const instants = new Intl.DateTimeFormat([], { dateStyle: 'short', timeStyle: 'medium', hour12: false });

const rates = new Intl.NumberFormat([], { maximumFractionDigits: 1 });

export const formatNumber = (value: number): string => numbers.format(value);

/** A rate per second: one decimal below ten, whole above; "—" when unknown. */
export function formatRate(perSecond: number | null): string {
  if (perSecond === null) return '—';
  return perSecond >= 10 ? numbers.format(Math.round(perSecond)) : rates.format(perSecond);
}

export function formatInstant(iso: string | null): string {
  if (!iso) return '—';
  return instants.format(new Date(iso));
}

export function formatTime(iso: string | number | null): string {
  if (iso === null) return '—';
  return times.format(new Date(iso));
}

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** "512 MB", "1.5 GB": a size at a glance (powers of 1,024, as the broker's settings count). */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${rates.format(value)} ${UNITS[unit]}`;
}
