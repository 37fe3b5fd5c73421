// The limit for the SSE benchmark: a bare Node HTTP server writing one frame to every open socket.
import http from 'node:http';

const clients = new Set();
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  res.write('retry: 1000\n\n');
  clients.add(res);
  req.on('close', () => clients.delete(res));
});
server.listen(0, '127.0.0.1', () => process.send({ type: 'listening', port: server.address().port }));
process.on('message', (message) => {
  if (message.type !== 'broadcast') return;
  const frame = `event: topology\ndata: ${JSON.stringify({ topic: 'topology', clusterId: message.clusterId, ts: new Date().toISOString() })}\n\n`;
  for (const res of clients) res.write(frame);
});
