import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** What a backup says on its way to serving, in the order it says it (Artemis 2.40). */
const TAKEOVER_LINES =
  /AMQ221037|AMQ221010|AMQ221007|AMQ221020|AMQ222092|become active|now active|Started .*Acceptor/;

/** A broker instance's log, where scripts/artemis.sh keeps it. */
export function brokerLogPath(profile: string, node: string): string {
  const home = process.env.ARTEMIS_STUDIO_HOME ?? join(homedir(), '.cache', 'artemis-studio');
  return join(home, 'instances', profile, node, 'log', 'artemis.log');
}

/**
 * The lines of a failover that a backup logged from `sinceMs` on (its takeover), each with its
 * offset from `sinceMs`: where a failover's unobserved period went, without reading logs by hand.
 * The broker logs local time with a comma before the milliseconds.
 */
export function takeoverTimeline(path: string, sinceMs: number, windowMs = 15_000): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    return [`(no log at ${path}: ${(err as Error).message})`];
  }
  return text.split('\n').flatMap((line) => {
    const stamp = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d),(\d{3})/.exec(line);
    if (!stamp || !TAKEOVER_LINES.test(line)) return [];
    const at = new Date(`${stamp[1]}T${stamp[2]}.${stamp[3]}`).getTime();
    if (at < sinceMs - 1000 || at > sinceMs + windowMs) return [];
    const offset = ((at - sinceMs) / 1000).toFixed(2);
    return [`+${offset} s ${line.slice(24, 200)}`];
  });
}
