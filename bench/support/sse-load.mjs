// Load process for the SSE benchmarks: opens N streams to a URL and measures the frames of one
// event name they get, each timed from the instant its payload names: `ts` for a signal (when it
// was published), `brokerTs` for an `events` frame (when the broker sent the notification).
// Parent messages: {type:'report'} -> replies {frames, latencies summary, errors, closed}.
import http from 'node:http';

// The last argument: the headers that authenticate every client (the session of a signed-in bench user).
const [url, countArg, measured = 'topology', headersArg = '{}'] = process.argv.slice(2);
const authHeaders = JSON.parse(headersArg);
const sentAt = (payload) => Date.parse(measured === 'events' ? payload.brokerTs : payload.ts);
const count = Number(countArg);
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
let frames = 0;
let errors = 0;
let closed = 0;
let connected = 0;
let latencies = [];

function open() {
  return new Promise((resolve) => {
    const req = http.get(url, { agent, headers: { ...authHeaders, Accept: 'text/event-stream' } }, (res) => {
      let pending = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        if (pending === '' && connected >= 0) resolve();
        pending += chunk;
        let cut;
        while ((cut = pending.indexOf('\n\n')) >= 0) {
          const block = pending.slice(0, cut);
          pending = pending.slice(cut + 2);
          const data = block.split('\n').find((l) => l.startsWith('data: '));
          if (!data || !block.includes(`event: ${measured}\n`)) continue;
          const sent = sentAt(JSON.parse(data.slice(6)));
          if (Number.isNaN(sent)) continue;
          frames++;
          latencies.push(Date.now() - sent);
        }
      });
      res.on('close', () => closed++);
    });
    req.on('error', () => {
      errors++;
      resolve();
    });
  });
}

for (let i = 0; i < count; i += 200) {
  await Promise.all(Array.from({ length: Math.min(200, count - i) }, () => open()));
  connected = i + 200;
}
process.send({ type: 'ready', connected: count - errors, errors });

process.on('message', (message) => {
  if (message.type !== 'report') return;
  latencies.sort((a, b) => a - b);
  const pick = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? null;
  process.send({
    type: 'report',
    frames,
    errors,
    closed,
    p50: pick(0.5),
    p99: pick(0.99),
    max: latencies.at(-1) ?? null,
  });
  frames = 0;
  latencies = [];
});
