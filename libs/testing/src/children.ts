import type { ChildProcess } from 'node:child_process';
import { createConnection } from 'node:net';

const living = new Set<ChildProcess>();

/**
 * Kills the child when this process exits, whichever way it exits. Without it, an aborted test run
 * or benchmark leaves a service or NATS server behind that still answers on its port, and the
 * next run talks to that one instead of its own.
 */
export function killOnExit(child: ChildProcess): ChildProcess {
  if (living.size === 0) process.once('exit', killAll);
  living.add(child);
  child.once('exit', () => {
    living.delete(child);
    if (living.size === 0) process.removeListener('exit', killAll);
  });
  return child;
}

function killAll(): void {
  for (const child of living) child.kill('SIGKILL');
}

/** True when something accepts TCP connections on the loopback port. */
export function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => {
      // Destroyed, not ended: an ended socket nobody reads never sees its peer's close, and it
      // held an integration run's process open for minutes after every test had passed.
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => {
      socket.destroy();
      resolve(false);
    });
  });
}
