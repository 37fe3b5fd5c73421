import type { Credential } from '../access/principal';

/** Of the credentials given, which are no longer good (keys: session digest in hex, or token id). */
export type CredentialCheck = (
  sessions: Buffer[],
  tokens: string[],
) => Promise<{ sessions: Set<string>; tokens: Set<string> }>;

interface Held {
  credential: Credential;
  end: () => void;
}

const keyOf = (credential: Credential): string =>
  credential.kind === 'session' ? credential.digest.toString('hex') : credential.id;

/**
 * The credential each open stream was authorised with. A stream outlives the request that
 * opened it, so a sign-out, a revoked token or a disabled user must end it too: every sweep asks
 * PostgreSQL once about all of them, and ends the streams whose credential is no longer good.
 */
export class CredentialWatch {
  private readonly held = new Map<object, Held>();

  hold(stream: object, credential: Credential | null, end: () => void): void {
    if (credential) this.held.set(stream, { credential, end });
  }

  release(stream: object): void {
    this.held.delete(stream);
  }

  /** Open sessions: watching the console is using it, so their idle clock is reset. */
  sessions(): Buffer[] {
    const unique = new Map<string, Buffer>();
    for (const { credential } of this.held.values())
      if (credential.kind === 'session') unique.set(keyOf(credential), credential.digest);
    return [...unique.values()];
  }

  async sweep(check: CredentialCheck): Promise<number> {
    if (this.held.size === 0) return 0;
    const tokens = new Set<string>();
    for (const { credential } of this.held.values())
      if (credential.kind === 'token') tokens.add(credential.id);
    const invalid = await check(this.sessions(), [...tokens]);
    let ended = 0;
    for (const [stream, { credential, end }] of this.held) {
      const bad = credential.kind === 'session' ? invalid.sessions : invalid.tokens;
      if (!bad.has(keyOf(credential))) continue;
      this.held.delete(stream);
      end();
      ended++;
    }
    return ended;
  }
}
