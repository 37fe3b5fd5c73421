// `npm start`: registers the development broker as the demo cluster, so a newcomer's first screen
// shows a live broker. Once: skipped when a cluster of that name exists, or with STUDIO_DEMO_CLUSTER=0.
// Reads the broker's URLs and credentials from `scripts/artemis.sh env dev` on standard input.
const gateway = process.argv[2] ?? 'http://127.0.0.1:8080';
const NAME = 'dev broker';

const env = Object.fromEntries(
  (await new Response(process.stdin).text())
    .split('\n')
    .filter((line) => line.includes('='))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
);

async function ready(deadline) {
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${gateway}/readyz`)).ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

if (!(await ready(Date.now() + 60_000))) {
  console.error(`demo cluster: the gateway at ${gateway} did not become ready; not registered`);
  process.exit(0);
}
// Signed in as the first admin, with the password studio.sh gave it (STUDIO_ADMIN_PASSWORD).
const signIn = await fetch(`${gateway}/api/v1/auth/sign-in`, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', 'X-Studio-Request': 'demo' },
  body: JSON.stringify({ username: 'admin', password: process.env.STUDIO_ADMIN_PASSWORD ?? '' }),
});
if (signIn.status !== 200) {
  console.log(
    'demo cluster: not registered (the admin password has changed; register the dev broker in the console)',
  );
  process.exit(0);
}
const session = {
  Cookie: signIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; '),
  'X-Studio-Request': 'demo',
};
const clusters = await (await fetch(`${gateway}/api/v1/clusters`, { headers: session })).json();
if (clusters.some((c) => c.name === NAME)) {
  console.log(`demo cluster: "${NAME}" is registered already`);
  process.exit(0);
}
const response = await fetch(`${gateway}/api/v1/clusters`, {
  method: 'POST',
  headers: { ...session, 'Content-Type': 'application/json' },
  body: JSON.stringify({
    name: NAME,
    nodes: [
      {
        name: env.ARTEMIS_NODE0_NAME,
        jolokiaUrl: env.ARTEMIS_NODE0_JOLOKIA_URL,
        amqpUrl: env.ARTEMIS_NODE0_AMQP_URL,
      },
    ],
    credentials: { jolokia: { username: env.ARTEMIS_USER, password: env.ARTEMIS_PASSWORD } },
  }),
});
const body = await response.json();
if (response.status === 201)
  console.log(`demo cluster: registered "${NAME}" (${gateway}/clusters/${body.id})`);
else console.error(`demo cluster: not registered: ${body.error?.message ?? response.status}`);
