import { killOnExit } from '@artemis-studio/testing';
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** What the load process measured since it started or since the last report. */
export interface SseLoadReport {
  frames: number;
  errors: number;
  closed: number;
  p50: number | null;
  p99: number | null;
  max: number | null;
}

/** The next IPC message of `type` from a child process. */
export const once = <T>(child: ChildProcess, type: string) =>
  new Promise<T>((resolve) => {
    const listener = (message: { type: string }) => {
      if (message.type !== type) return;
      child.off('message', listener);
      resolve(message as T);
    };
    child.on('message', listener);
  });

/**
 * Starts the SSE load process (sse-load.mjs) with `clients` streams on `url`, timing the frames
 * named `measured`, and waits until they are all open.
 */
export async function startSseLoad(
  url: string,
  clients: number,
  measured: 'topology' | 'events',
  headers: Record<string, string> = {},
) {
  const child = killOnExit(
    fork(join(__dirname, 'sse-load.mjs'), [url, String(clients), measured, JSON.stringify(headers)], {
      stdio: 'inherit',
    }),
  );
  const ready = await once<{ connected: number; errors: number }>(child, 'ready');
  return {
    ready,
    /** Reports, and starts counting afresh. */
    report: async () => {
      child.send({ type: 'report' });
      return once<SseLoadReport>(child, 'report');
    },
    stop: () => child.kill(),
  };
}
