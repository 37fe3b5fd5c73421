// Waits until no Studio is present on the NATS: no live entry in `studio_members` (a service's
// presence or an owner's membership, each with its `expiresAt`). The container checks each start
// a fresh installation on the machine's NATS, and a service that finds another installation there
// waits it out or refuses to start (ADR-0031): a check that starts while the previous one's
// entries are still alive fails on that alone, with nothing saying whose they were. This names
// them, waits for them to lapse, and fails naming what kept renewing.
//   node scripts/containers/nats-quiet.mjs [nats URL] [seconds]
import { connect } from 'nats';

const [url = 'nats://127.0.0.1:4222', seconds = '45'] = process.argv.slice(2);
const deadline = Date.now() + Number(seconds) * 1000;
const say = (line) => console.log(`nats-quiet: ${line}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const nc = await connect({ servers: url, name: 'studio container check' });
const alive = async (kv) => {
  const found = [];
  for await (const key of await kv.keys()) {
    const entry = await kv.get(key);
    if (!entry || entry.operation !== 'PUT') continue;
    const value = entry.json();
    if (Date.parse(value.expiresAt) > Date.now())
      found.push(
        `${key} (${value.replica}${value.database ? `, database ${value.database}` : ''}, until ${value.expiresAt})`,
      );
  }
  return found.sort();
};

let kv;
try {
  kv = await nc.jetstream().views.kv('studio_members', { bindOnly: true });
} catch {
  // No bucket: no Studio has run on this NATS yet.
}
let said = '';
for (let present = kv ? await alive(kv) : []; present.length > 0; present = await alive(kv)) {
  if (present.join() !== said) say(`still present on the NATS: ${present.join('; ')}`);
  said = present.join();
  if (Date.now() > deadline) {
    await nc.close();
    console.error(
      `nats-quiet: another Studio keeps renewing its entries on ${url}; a check beside it would be refused`,
    );
    process.exit(1);
  }
  await sleep(2000);
}
if (said) say('the NATS is quiet');
await nc.close();
