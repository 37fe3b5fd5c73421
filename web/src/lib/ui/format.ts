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

export const formatNumber = (value: number): string => numbers.format(value);

export function formatInstant(iso: string | null): string {
  if (!iso) return '—';
  return instants.format(new Date(iso));
}

export function formatTime(iso: string | number | null): string {
  if (iso === null) return '—';
  return times.format(new Date(iso));
}
