import { artemis } from '../broker';
import { testConfig } from '../config';
import { dropTestDatabase } from '../database';

/** @public Jest's globalSetup/globalTeardown (jest.config.js), which knip does not read. */
export default async function globalTeardown(): Promise<void> {
  const name = process.env.STUDIO_TEST_DATABASE_NAME;
  if (name && !process.env.STUDIO_TEST_KEEP_DATABASE) await dropTestDatabase(name);
  // A broker the developer started stays up; one the harness started goes, unless asked to stay.
  if (process.env.STUDIO_TEST_BROKER_STARTED_BY_HARNESS && !process.env.STUDIO_TEST_KEEP_BROKER) {
    await artemis('stop', testConfig.brokerProfile);
  }
  reportWhatKeepsRunning();
}

/** How long after the tests a run still alive is ended, failed: CI's own limit is far longer. */
const GIVE_UP_MS = 120_000;

/**
 * Jest waits for whatever a test left open (a timer, a socket, a server) and a run that passed
 * then never ends. Should the process still be alive a while after the run, this names what is
 * keeping it, so the leak can be found; two minutes on it ends the run, failed, where a NATS client
 * left dialling once held CI until its 90-minute limit. Unref'd: they keep nothing alive.
 */
function reportWhatKeepsRunning(): void {
  setTimeout(() => {
    console.error(
      `still running ${GIVE_UP_MS / 1000} s after the tests ended: ending the run, failed (a leak to find)`,
    );
    process.exit(1);
  }, GIVE_UP_MS).unref();
  setTimeout(() => {
    const handles = (process as unknown as { _getActiveHandles(): object[] })._getActiveHandles();
    const described = handles.map((h) => {
      const socket = h as { remoteAddress?: string; remotePort?: number; localPort?: number };
      const name = h.constructor?.name ?? typeof h;
      return socket.remotePort !== undefined
        ? `${name} ${socket.remoteAddress}:${socket.remotePort} (local ${socket.localPort})`
        : name;
    });
    // Timers are not handles: the resources say them (Timeout, TCPWRAP, FSReqCallback, …).
    const resources = process.getActiveResourcesInfo().filter((r) => r !== 'TTYWRAP');
    console.error(
      `still running 20 s after the tests ended, held by: handles [${described.join(', ')}], resources [${resources.join(', ')}]`,
    );
  }, 20_000).unref();
}
