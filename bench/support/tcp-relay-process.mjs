// A TCP relay in a process of its own, so the traffic it carries never competes with the
// benchmark's own event loop (in-process, 1,000 SSE streams through a balancer starved the
// PostgreSQL proxy beside it, and the gateways timed out connecting to the database).
//   argv: 'balance' <backend port>...   round robin; a backend that refuses passes to the next
//   argv: 'proxy' <target port>         one target; {type:'block'} cuts every connection and
//                                       refuses new ones until {type:'unblock'}
// Replies {type:'listening', port} once it listens, and {type:'done'} after each block/unblock.
import { createConnection, createServer } from 'node:net';

const [mode, ...ports] = process.argv.slice(2);
const backends = ports.map(Number);
const sockets = new Set();
let blocked = false;
let next = 0;

function route(client, tried = 0) {
  if (blocked || tried >= backends.length) return client.destroy();
  const port = mode === 'balance' ? backends[next++ % backends.length] : backends[0];
  const upstream = createConnection({ host: '127.0.0.1', port });
  upstream.once('error', () => {
    if (upstream.connecting && mode === 'balance') route(client, tried + 1);
    else client.destroy();
  });
  upstream.once('connect', () => {
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
    client.resume();
  });
}

const server = createServer((client) => {
  client.pause();
  client.on('error', () => undefined);
  route(client);
});
server.listen(0, '127.0.0.1', () => process.send({ type: 'listening', port: server.address().port }));

process.on('message', (message) => {
  if (message.type === 'block') {
    blocked = true;
    for (const socket of sockets) socket.destroy();
  } else if (message.type === 'unblock') {
    blocked = false;
  }
  process.send({ type: 'done' });
});
process.on('disconnect', () => process.exit(0));
