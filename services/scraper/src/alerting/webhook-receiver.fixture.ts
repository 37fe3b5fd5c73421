import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const WEBHOOK_SECRET = 'a-webhook-secret-of-some-length';
/** How old a signed delivery may be before the receiver refuses it as a replay. */
const REPLAY_WINDOW_S = 300;

interface Received {
  transition: string;
  alert: { state: string; subject: string; ruleName: string };
  deliveryId: string;
}

/**
 * An on-call tool's webhook endpoint as our docs tell people to write it: checks the signature
 * over `{timestamp}.{body}`, refuses a stale timestamp and a delivery id it has seen, and can be
 * told to fail the next requests (a receiver that is down).
 */
export async function startWebhookReceiver() {
  const received: Received[] = [];
  const refused: string[] = [];
  const seen = new Set<string>();
  let failNext = 0;
  let lastRequest: { headers: Record<string, string>; body: string } | null = null;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const headers = req.headers as Record<string, string>;
      lastRequest = { headers, body };
      const refuse = (why: string) => {
        refused.push(why);
        res.writeHead(401).end(why);
      };
      if (failNext > 0) {
        failNext--;
        res.writeHead(503).end('down for maintenance');
        return;
      }
      const timestamp = headers['x-studio-timestamp'] ?? '';
      const expected = `v1=${createHmac('sha256', WEBHOOK_SECRET).update(`${timestamp}.${body}`).digest('hex')}`;
      const given = headers['x-studio-signature'] ?? '';
      if (given.length !== expected.length || !timingSafeEqual(Buffer.from(given), Buffer.from(expected)))
        return refuse('bad signature');
      if (Math.abs(Date.now() / 1000 - Number(timestamp)) > REPLAY_WINDOW_S) return refuse('stale');
      const delivery = headers['x-studio-delivery'] ?? '';
      if (seen.has(delivery)) return refuse('replayed');
      seen.add(delivery);
      received.push(JSON.parse(body) as Received);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    received,
    refused,
    failNext: (n: number) => (failNext = n),
    /** Sends the last request again, as someone who captured it would, optionally altered. */
    replayLast: async (alter: (body: string) => string = (b) => b) => {
      const last = lastRequest!;
      return (
        await fetch(url, {
          method: 'POST',
          headers: Object.fromEntries(
            ['content-type', 'x-studio-timestamp', 'x-studio-signature', 'x-studio-delivery'].map((h) => [
              h,
              last.headers[h],
            ]),
          ),
          body: alter(last.body),
        })
      ).status;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
