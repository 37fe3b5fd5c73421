// What a user does first with a freshly started Studio, done through its HTTP API as the console
// does it: sign in as the first admin, register the broker, open the cluster's live stream, and
// see a broker event arrive on it. Used by the container checks (scripts/containers/*.sh), with
// the gateway as the image, the manifests or the compose file run it.
//   node scripts/containers/live-event.mjs <console URL> <cluster name> <node name>=<jolokia URL>,<amqp URL>…
// The broker's credentials come from ARTEMIS_USER and ARTEMIS_PASSWORD, the admin's password from
// STUDIO_ADMIN_PASSWORD. Exits 0 once a broker event arrived, 1 with what went wrong otherwise.
const [consoleUrl, clusterName, ...nodeArgs] = process.argv.slice(2);
const TIMEOUT_MS = Number(process.env.LIVE_EVENT_TIMEOUT_MS ?? 180_000);
const deadline = Date.now() + TIMEOUT_MS;
const say = (line) => console.log(`live-event: ${line}`);
const fail = (line) => {
  console.error(`live-event: ${line}`);
  process.exit(1);
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
if (!consoleUrl || !clusterName || nodeArgs.length === 0)
  fail('usage: live-event.mjs <console URL> <cluster name> <node>=<jolokia URL>,<amqp URL>…');

// The console answers once a gateway is up (behind a proxy, /readyz is each replica's own).
for (;;) {
  const answered = await fetch(`${consoleUrl}/api/v1/auth/me`).then(
    (r) => r.status,
    () => 0,
  );
  if (answered > 0 && answered < 500) break;
  if (Date.now() > deadline) fail(`the console at ${consoleUrl} did not answer within ${TIMEOUT_MS} ms`);
  await sleep(1000);
}

const signIn = await fetch(`${consoleUrl}/api/v1/auth/sign-in`, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', 'X-Studio-Request': 'check' },
  body: JSON.stringify({ username: 'admin', password: process.env.STUDIO_ADMIN_PASSWORD ?? '' }),
});
if (signIn.status !== 200)
  fail(`signing in as the first admin answered ${signIn.status}: ${await signIn.text()}`);
const session = {
  Cookie: signIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; '),
  'X-Studio-Request': 'check',
};
say('signed in as the first admin');

const call = async (method, path, body) => {
  const response = await fetch(`${consoleUrl}${path}`, {
    method,
    headers: {
      ...session,
      ...(body && { 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() }),
    },
    body: body && JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
};

const nodes = nodeArgs.map((arg) => {
  const [name, urls] = arg.split('=');
  const [jolokiaUrl, amqpUrl] = urls.split(',');
  return { name, jolokiaUrl, amqpUrl };
});
// Registered once: a second run against the same console (after a handover, say) reuses it.
const existing = (await call('GET', '/api/v1/clusters')).body?.find?.((c) => c.name === clusterName);
const registered =
  existing === undefined
    ? await call('POST', '/api/v1/clusters', {
        name: clusterName,
        nodes,
        credentials: {
          jolokia: {
            username: process.env.ARTEMIS_USER ?? 'studio',
            password: process.env.ARTEMIS_PASSWORD ?? 'studio',
          },
        },
      })
    : { status: 201, body: existing };
if (registered.status !== 201)
  fail(`registering the broker answered ${registered.status}: ${JSON.stringify(registered.body)}`);
const clusterId = registered.body.id;
say(
  `${existing ? 'found' : 'registered'} "${clusterName}" (${nodes.map((n) => n.name).join(', ')}) as ${clusterId}`,
);

// The cluster's live stream, read as the console reads it.
const events = [];
const stream = new AbortController();
const opened = await fetch(`${consoleUrl}/api/v1/stream?clusterId=${clusterId}&topics=events,topology`, {
  headers: { ...session, Accept: 'text/event-stream' },
  signal: stream.signal,
});
if (opened.status !== 200) fail(`opening the stream answered ${opened.status}`);
(async () => {
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const chunk of opened.body) {
      buffer += decoder.decode(chunk, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(frame)?.[1];
        const data = /^data: (.*)$/m.exec(frame)?.[1];
        if (event === 'events' && data) events.push(JSON.parse(data));
      }
    }
  } catch (err) {
    if (!stream.signal.aborted) fail(`the stream broke: ${err.message}`);
  }
})();
say('the live stream is open');

// A change on the broker, made through Studio as an operator would: a queue. The broker notifies
// it; the notifier, the event store and the gateway carry it to the stream. Repeated until one of
// the queues' events arrives, since the notifier subscribes a moment after the registration.
const created = new Set();
const arrived = () => events.find((e) => created.has(e.queue) || created.has(e.address));
for (let n = 1; !arrived(); n++) {
  if (Date.now() > deadline)
    fail(`no event of the queues created arrived on the stream within ${TIMEOUT_MS} ms`);
  const queue = `studio-container-check-${Date.now()}-${n}`;
  const answer = await call('POST', `/api/v1/clusters/${clusterId}/queues`, { name: queue });
  if (answer.status === 200) created.add(queue);
  else say(`creating ${queue} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  for (let waited = 0; waited < 5000 && !arrived(); waited += 250) await sleep(250);
}
const event = arrived();
say(
  `the broker's ${event.type} for ${event.queue ?? event.address} arrived on the stream (seq ${event.seq})`,
);
stream.abort();
process.exit(0);
