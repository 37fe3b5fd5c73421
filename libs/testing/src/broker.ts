import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

interface BrokerNode {
  name: string;
  jolokiaUrl: string;
  /** The multi-protocol acceptor, which speaks AMQP 1.0. */
  amqpUrl: string;
  home: string;
}

export interface BrokerProfile {
  user: string;
  password: string;
  /** A user without the notification permissions. */
  observer: { user: string; password: string };
  nodes: BrokerNode[];
}

/** scripts/artemis.sh, found from here up, so tests run from any working directory. */
function brokerScript(): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, 'scripts', 'artemis.sh');
    if (existsSync(candidate)) return candidate;
  }
  throw new Error('scripts/artemis.sh not found above ' + __dirname);
}

export async function artemis(...args: string[]): Promise<string> {
  try {
    const { stdout } = await run('bash', [brokerScript(), ...args], { maxBuffer: 1 << 20, timeout: 300_000 });
    return stdout;
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`scripts/artemis.sh ${args.join(' ')} failed: ${e.stderr || e.message}`);
  }
}

/** Starts the profile's brokers (creating them on first use) and waits until they serve. */
export async function startBroker(profile: string): Promise<BrokerProfile> {
  await artemis('start', profile);
  return brokerProfile(profile);
}

export async function isBrokerRunning(profile: string): Promise<boolean> {
  const status = await artemis('status', profile);
  return status.split('\n').some((line) => line.includes(' running'));
}

export async function brokerProfile(profile: string): Promise<BrokerProfile> {
  const vars = Object.fromEntries(
    (await artemis('env', profile))
      .trim()
      .split('\n')
      .map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]),
  );
  const nodes: BrokerNode[] = [];
  for (let i = 0; vars[`ARTEMIS_NODE${i}_NAME`]; i++) {
    nodes.push({
      name: vars[`ARTEMIS_NODE${i}_NAME`],
      jolokiaUrl: vars[`ARTEMIS_NODE${i}_JOLOKIA_URL`],
      amqpUrl: vars[`ARTEMIS_NODE${i}_AMQP_URL`],
      home: vars[`ARTEMIS_NODE${i}_HOME`],
    });
  }
  return {
    user: vars.ARTEMIS_USER,
    password: vars.ARTEMIS_PASSWORD,
    observer: { user: vars.ARTEMIS_OBSERVER_USER, password: vars.ARTEMIS_OBSERVER_PASSWORD },
    nodes,
  };
}
