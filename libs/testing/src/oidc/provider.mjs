// A real OpenID provider (the `oidc-provider` package) for the gateway's sign-in tests, run as its
// own process because it is an ES module the test runner cannot load. Nothing here is mocked: the
// authorization code flow, PKCE, the signed ID token and the discovery document are the
// provider's own. Two test-only levers, on /test/*: who signs in next (the interaction completes
// as that account, standing in for a person typing a password), and whether the token endpoint's
// ID token is tampered with on its way out (forged with another key, expired, or altered), so the
// gateway's refusal of each is tested against the real exchange.
import { exportJWK, generateKeyPair, SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import Provider from 'oidc-provider';
import { createServer } from 'node:http';

const [port, clientId, clientSecret, redirectUri] = process.argv.slice(2);
const issuer = `http://127.0.0.1:${port}`;

const signing = await generateKeyPair('RS256', { extractable: true });
const signingJwk = { ...(await exportJWK(signing.privateKey)), kid: 'studio-test', alg: 'RS256', use: 'sig' };
const foreign = await generateKeyPair('RS256', { extractable: true });

const accounts = new Map();
let next = { sub: 'alice', groups: [] };
let tamper = 'none';

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code'],
      response_types: ['code'],
    },
  ],
  jwks: { keys: [signingJwk] },
  pkce: { required: () => true },
  claims: { openid: ['sub'], profile: ['preferred_username', 'groups'] },
  // The groups claim goes in the ID token itself, as identity providers configured for it do.
  conformIdTokenClaims: false,
  features: { devInteractions: { enabled: false } },
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  findAccount: async (_ctx, sub) => ({
    accountId: sub,
    claims: async () => ({ sub, preferred_username: sub, groups: accounts.get(sub)?.groups ?? [] }),
  }),
});
provider.proxy = false;

// The token endpoint's answer, as a man in the middle (or a broken provider) might change it.
provider.use(async (ctx, nextMiddleware) => {
  await nextMiddleware();
  if (ctx.path !== '/token' || tamper === 'none' || !ctx.body?.id_token) return;
  const claims = decodeJwt(ctx.body.id_token);
  const header = decodeProtectedHeader(ctx.body.id_token);
  if (tamper === 'forged') {
    ctx.body.id_token = await new SignJWT(claims).setProtectedHeader(header).sign(foreign.privateKey);
  } else if (tamper === 'expired') {
    const past = Math.floor(Date.now() / 1000) - 3600;
    ctx.body.id_token = await new SignJWT({ ...claims, iat: past - 600, exp: past })
      .setProtectedHeader(header)
      .sign(signing.privateKey);
  } else if (tamper === 'altered') {
    const [h, , s] = ctx.body.id_token.split('.');
    const body = Buffer.from(JSON.stringify({ ...claims, groups: ['studio-admins'] })).toString('base64url');
    ctx.body.id_token = `${h}.${body}.${s}`;
  }
});

const callback = provider.callback();
const server = createServer(async (req, res) => {
  try {
    if (req.url === '/test/next' && req.method === 'POST') {
      const body = JSON.parse(await read(req));
      next = { sub: body.sub, groups: body.groups ?? [] };
      accounts.set(next.sub, next);
      tamper = body.tamper ?? 'none';
      res.writeHead(204).end();
      return;
    }
    const interaction = /^\/interaction\/([^/?]+)/.exec(req.url ?? '');
    if (interaction) {
      // The person signs in as `next` and consents to what the client asked for.
      const details = await provider.interactionDetails(req, res);
      const grant = new provider.Grant({ accountId: next.sub, clientId });
      grant.addOIDCScope(details.params.scope);
      const grantId = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: next.sub }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    callback(req, res);
  } catch (err) {
    res.writeHead(500).end(String(err));
  }
});

function read(req) {
  return new Promise((resolve, reject) => {
    let data = '';
    req.on('data', (d) => (data += d));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

server.listen(Number(port), '127.0.0.1', () => process.stdout.write(`ready ${issuer}\n`));
