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

export function formatInstant(iso: string | null): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleString([], { hour12: false });
}

export function formatTime(iso: string | number | null): string {
  if (iso === null) return '—';
  return new Date(iso).toLocaleTimeString([], { hour12: false });
}
