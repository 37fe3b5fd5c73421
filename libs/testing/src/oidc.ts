import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { canConnect, killOnExit } from './children';

export interface TestIdentityProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who signs in next, with which groups; `tamper` alters the ID token the provider returns. */
  next(sub: string, groups?: string[], tamper?: 'none' | 'forged' | 'expired' | 'altered'): Promise<void>;
  stop(): Promise<void>;
}

/** Starts a real OpenID provider (oidc-provider) on `port`, registered for the gateway's callback. */
export async function startIdentityProvider(
  port: number,
  redirectUri: string,
): Promise<TestIdentityProvider> {
  if (await canConnect(port)) throw new Error(`cannot start the identity provider: port ${port} is taken`);
  const clientId = 'artemis-studio';
  const clientSecret = `secret-${Math.random().toString(36).slice(2)}`;
  const child = spawn(
    process.execPath,
    [join(__dirname, 'oidc', 'provider.mjs'), String(port), clientId, clientSecret, redirectUri],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  killOnExit(child);
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`identity provider did not start:\n${output}`)), 20_000);
    child.stdout?.on('data', (d) => {
      output += d;
      if (output.includes('ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr?.on('data', (d) => (output += d));
    child.once('exit', (code) => reject(new Error(`identity provider exited with ${code}:\n${output}`)));
  });
  const issuer = `http://127.0.0.1:${port}`;
  return {
    issuer,
    clientId,
    clientSecret,
    next: async (sub, groups = [], tamper = 'none') => {
      const response = await fetch(`${issuer}/test/next`, {
        method: 'POST',
        body: JSON.stringify({ sub, groups, tamper }),
      });
      if (response.status !== 204) throw new Error(`identity provider: ${response.status}`);
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
