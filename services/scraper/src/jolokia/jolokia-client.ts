import axios, { AxiosInstance } from 'axios';
import { Agent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { CallLimiter } from './call-limiter';

export type JolokiaRequest =
  | { type: 'read'; mbean: string; attribute?: string | string[] }
  | { type: 'exec'; mbean: string; operation: string; arguments: unknown[] };

/** How a call is made: polling's are refused when the budget is spent; an action's wait for it. */
export interface CallOptions {
  /** Wait this long for the node's call budget instead of failing at once. */
  waitForBudgetMs?: number;
  /** The answer's deadline; the client's default (5 s) otherwise. */
  timeoutMs?: number;
}

export interface JolokiaResponse {
  status: number;
  value?: unknown;
  error?: string;
  error_type?: string;
}

export interface JolokiaTarget {
  /** The node's key for the call budget. */
  nodeKey: string;
  jolokiaUrl: string;
  /** Sent on every request: real brokers keep Jolokia's strict Origin checking. */
  origin: string;
  auth?: { username: string; password: string };
}

export type JolokiaFailure =
  'unreachable' | 'timeout' | 'unauthorized' | 'throttled' | 'forbidden' | 'limited' | 'bad-response';

export class JolokiaError extends Error {
  override name = 'JolokiaError';
  constructor(
    readonly kind: JolokiaFailure,
    message: string,
    /** How long the node asked us to stay away (HTTP Retry-After), when it said. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** The Origin a node's Jolokia accepts by default: its own scheme and host (`*://<http-host>*`). */
export function defaultOrigin(jolokiaUrl: string): string {
  return new URL(jolokiaUrl).origin;
}

/**
 * Every Jolokia call to a broker goes through here: one bulk POST per call, keep-alive sockets,
 * the node's call budget, and success judged per response by its JSON `status`.
 */
export class JolokiaClient {
  constructor(
    private readonly limiter: CallLimiter,
    private readonly http: AxiosInstance = axios.create({
      httpAgent: new Agent({ keepAlive: true, maxSockets: 4 }),
      httpsAgent: new HttpsAgent({ keepAlive: true, maxSockets: 4 }),
      timeout: 5000,
      maxContentLength: 256 * 1024 * 1024,
    }),
  ) {}

  /** Sends the requests as one bulk POST; answers come back in order, one per request. */
  async bulk(
    target: JolokiaTarget,
    requests: JolokiaRequest[],
    options: CallOptions = {},
  ): Promise<JolokiaResponse[]> {
    const granted =
      options.waitForBudgetMs === undefined
        ? this.limiter.tryAcquire(target.nodeKey)
        : await this.limiter.acquire(target.nodeKey, options.waitForBudgetMs);
    if (!granted) {
      throw new JolokiaError('limited', 'call budget for this node exhausted; retrying next tick');
    }
    let response;
    try {
      response = await this.http.post(target.jolokiaUrl, requests, {
        params: { ignoreErrors: 'true' },
        headers: { Origin: target.origin, 'Content-Type': 'application/json' },
        auth: target.auth,
        validateStatus: () => true,
        ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
      });
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'ECONNABORTED' || code === 'ETIMEDOUT')
        throw new JolokiaError('timeout', `no answer from ${target.jolokiaUrl} in time`);
      throw new JolokiaError(
        'unreachable',
        `${target.jolokiaUrl} unreachable: ${code ?? (err as Error).message}`,
      );
    }
    // Artemis answers a refused login (wrong password, or a user outside the console role) with
    // HTTP 403, not 401; a refused Origin comes back inside an HTTP 200 as JSON status 403.
    if (response.status === 401 || response.status === 403) {
      throw new JolokiaError(
        'unauthorized',
        `Jolokia refused the login (HTTP ${response.status}): wrong credentials, or the user is not in the console role`,
      );
    }
    // Artemis 2.40's console throttles logins per user name: after about four failed logins it
    // answers every login of that name, the right password too, with HTTP 429 until Retry-After
    // has passed, and each further failure doubles the wait, up to a day. A wrong password
    // anywhere (here, or a person at the console) so locks out every client of that user name.
    if (response.status === 429) {
      const retryAfter = Number(response.headers['retry-after']);
      const user = target.auth?.username ?? '(none)';
      throw new JolokiaError(
        'throttled',
        `Jolokia is refusing logins for user ${user} after failed ones (HTTP 429)` +
          (Number.isFinite(retryAfter) ? `, for ${retryAfter} s more` : '') +
          `: a wrong password for this user name, here or elsewhere, blocks it for everyone`,
        Number.isFinite(retryAfter) ? retryAfter * 1000 : undefined,
      );
    }
    const body = response.data as unknown;
    const refusal = (Array.isArray(body) ? body : [body]) as (JolokiaResponse | undefined)[];
    if (response.status === 200 && refusal.length > 0 && refusal.every((a) => a?.status === 403)) {
      throw new JolokiaError(
        'forbidden',
        `Jolokia refused Origin ${target.origin} (strict checking): ${refusal[0]?.error ?? 'status 403'}; set the cluster's Jolokia Origin`,
      );
    }
    if (response.status !== 200 || !Array.isArray(body) || body.length !== requests.length) {
      throw new JolokiaError(
        'bad-response',
        `unexpected answer from ${target.jolokiaUrl} (HTTP ${response.status})`,
      );
    }
    return body as JolokiaResponse[];
  }
}
