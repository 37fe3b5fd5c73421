import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type * as Oidc from 'openid-client';
import { DomainError } from '../domain-error';
import { GATEWAY_CONFIG, type GatewayConfig, type OidcConfig } from '../gateway.config';

/** What the browser carries between "Sign in with …" and the callback, signed so it cannot be forged. */
interface Flow {
  state: string;
  nonce: string;
  verifier: string;
  returnTo: string;
  /** ms since the epoch: a flow left unfinished for ten minutes is void. */
  startedAt: number;
}

const FLOW_TTL_MS = 10 * 60_000;

/**
 * openid-client is an ES module: loaded when an identity provider is first used (Node 24 requires
 * it from our CommonJS), so nothing that never signs in through OIDC, unit tests included, loads it.
 */
const loadOidc = (): Promise<typeof Oidc> => import('openid-client');

/** Who the identity provider says signed in, and the groups its configured claim lists. */
export interface OidcIdentity {
  username: string;
  groups: string[];
}

/**
 * OpenID Connect sign-in: authorization code with PKCE (S256), state and nonce, through
 * `openid-client`, which also checks the ID token's signature against the provider's keys, its
 * issuer, audience, expiry and nonce. The flow's secrets travel in a signed, HttpOnly cookie, so
 * the callback may land on any gateway replica.
 */
@Injectable()
export class OidcClient {
  private readonly logger = new Logger('OIDC');
  private readonly config: OidcConfig | null;
  private readonly signingKey: Buffer;
  private discovered?: Promise<Oidc.Configuration>;

  constructor(@Inject(GATEWAY_CONFIG) gateway: GatewayConfig) {
    this.config = gateway.access.oidc;
    this.signingKey = createHmac('sha256', Buffer.from(gateway.secretKey, 'base64'))
      .update('artemis-studio oidc flow')
      .digest();
  }

  get enabled(): OidcConfig | null {
    return this.config;
  }

  /** The provider's metadata, fetched once; a failed discovery is retried at the next sign-in. */
  private provider(): Promise<Oidc.Configuration> {
    const config = this.configured();
    this.discovered ??= loadOidc()
      .then(async (oidc) => {
        const discovered = await oidc.discovery(
          new URL(config.issuer),
          config.clientId,
          config.clientSecret,
          undefined,
          // A plain-http issuer is only ever a development or test provider; production uses https.
          new URL(config.issuer).protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : undefined,
        );
        // openid-client trusts an ID token from the token endpoint on the strength of TLS alone
        // (OIDC Core 3.1.3.7 allows it); without this, a token signed by anyone, or altered after
        // signing, is accepted. With it, every ID token's signature is checked against the
        // provider's published keys.
        oidc.enableNonRepudiationChecks(discovered);
        return discovered;
      })
      .catch((err: unknown) => {
        this.discovered = undefined;
        this.logger.warn(`discovery at ${config.issuer} failed: ${(err as Error).message}`);
        throw new DomainError(
          'unavailable',
          'IDENTITY_PROVIDER_UNAVAILABLE',
          'the identity provider cannot be reached',
        );
      });
    return this.discovered;
  }

  /** Where to send the browser, and the flow cookie's value to set. */
  async start(returnTo: string): Promise<{ url: string; flow: string }> {
    const config = this.configured();
    const provider = await this.provider();
    const oidc = await loadOidc();
    const flow: Flow = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      verifier: oidc.randomPKCECodeVerifier(),
      returnTo,
      startedAt: Date.now(),
    };
    const url = oidc.buildAuthorizationUrl(provider, {
      redirect_uri: config.redirectUrl,
      scope: config.scopes,
      code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
      code_challenge_method: 'S256',
      state: flow.state,
      nonce: flow.nonce,
    });
    return { url: url.href, flow: this.seal(flow) };
  }

  /** Exchanges the code at the provider and checks the ID token; any doubt is a refusal. */
  async finish(
    callbackUrl: URL,
    sealedFlow: string | undefined,
  ): Promise<{ identity: OidcIdentity; returnTo: string }> {
    const config = this.configured();
    const flow = sealedFlow ? this.open(sealedFlow) : null;
    if (!flow || Date.now() - flow.startedAt > FLOW_TTL_MS)
      throw new DomainError(
        'unauthenticated',
        'SIGN_IN_EXPIRED',
        'the sign-in took too long or was not started here; start again',
      );
    const provider = await this.provider();
    const oidc = await loadOidc();
    // The provider calls back on the registered redirect URL; what reached us behind a proxy may differ.
    const current = new URL(config.redirectUrl);
    current.search = callbackUrl.search;
    let claims: Oidc.IDToken | undefined;
    try {
      const tokens = await oidc.authorizationCodeGrant(provider, current, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (err) {
      throw new DomainError(
        'unauthenticated',
        'SIGN_IN_REFUSED',
        `the identity provider's answer was refused: ${(err as Error).message}`,
      );
    }
    if (!claims) throw new DomainError('unauthenticated', 'SIGN_IN_REFUSED', 'no ID token');
    const name = [claims.preferred_username, claims.email, claims.sub].find(
      (v): v is string => typeof v === 'string' && v.length > 0,
    )!;
    const rawGroups = claims[config.groupsClaim];
    const groups = Array.isArray(rawGroups)
      ? rawGroups.filter((g): g is string => typeof g === 'string')
      : [];
    return {
      identity: { username: name.slice(0, 200), groups: groups.slice(0, 500) },
      returnTo: flow.returnTo,
    };
  }

  private configured(): OidcConfig {
    if (!this.config)
      throw new DomainError('not-found', 'OIDC_NOT_CONFIGURED', 'no identity provider is configured');
    return this.config;
  }

  private seal(flow: Flow): string {
    const payload = Buffer.from(JSON.stringify(flow)).toString('base64url');
    return `${payload}.${createHmac('sha256', this.signingKey).update(payload).digest('base64url')}`;
  }

  private open(sealed: string): Flow | null {
    const [payload, mac] = sealed.split('.');
    if (!payload || !mac) return null;
    const expected = createHmac('sha256', this.signingKey).update(payload).digest();
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      return JSON.parse(Buffer.from(payload, 'base64url').toString()) as Flow;
    } catch {
      return null;
    }
  }
}
