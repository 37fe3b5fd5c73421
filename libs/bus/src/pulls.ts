import { createInbox, nanos, type Msg, type NatsConnection } from 'nats';

/** How long one pull waits at the server before it ends with what it could deliver. */
const PULL_EXPIRES_MS = 2000;
/** Past a pull's expiry, how long its end may take to reach us before the pull is counted gone. */
const PULL_GRACE_MS = 1000;
/** How long a consumer hears nothing, pulls outstanding, before it counts them gone and pulls again. */
export const PULL_SILENCE_LIMIT_MS = PULL_EXPIRES_MS + PULL_GRACE_MS;
const WATCH_MS = 250;

/** Where a pulled message sits in its stream, from the acknowledgement subject the server gave it. */
export interface PulledInfo {
  streamSeq: number;
  /** 1 the first time the consumer delivers the message. */
  deliveryCount: number;
}

/**
 * From `$JS.ACK.<stream>.<consumer>.<delivered>.<stream seq>.<consumer seq>.<time>.<pending>`, or
 * the newer form with a domain and an account hash after `ACK` and a random token at the end;
 * undefined for any other subject (a message that did not come from the server).
 */
export function pulledInfo(reply: string | undefined): PulledInfo | undefined {
  const tokens = reply?.split('.') ?? [];
  const at = tokens.length === 9 ? 4 : 6;
  if (tokens[0] !== '$JS' || tokens[1] !== 'ACK' || tokens.length < at + 2) return undefined;
  return { deliveryCount: Number(tokens[at]), streamSeq: Number(tokens[at + 1]) };
}

/** Encoded once: an acknowledgement goes with every stored event. */
const ACK = new TextEncoder().encode('+ACK');

/** Acknowledges, hands back (after `delayMs`) or ends a pulled message, by answering its subject. */
export const acknowledge = {
  ack: (msg: Msg) => msg.respond(ACK),
  nak: (msg: Msg, delayMs?: number) =>
    msg.respond(delayMs ? `-NAK ${JSON.stringify({ delay: nanos(delayMs) })}` : '-NAK'),
  // No reason text: servers before 2.10 ignore a "+TERM <reason>" and redeliver.
  term: (msg: Msg) => msg.respond('+TERM'),
};

/**
 * Pulls a durable consumer's messages onto one inbox of ours, `batch` at a time and topped up at
 * half of it, into `onMessage`, until `signal` aborts; then it sends no further pull and resolves
 * once every pull it sent has ended. Rejects when the server refuses a pull for good (the consumer
 * deleted, JetStream away); the caller starts again.
 *
 * Why not nats.js's `consume` or `fetch`: both unsubscribe their inbox while the server may still
 * be sending to it, and what the server sent then counts as delivered and comes back only after the
 * consumer's acknowledgement window (60 s for the event store). `consume` does so on every stop,
 * with up to its whole batch in flight (700 to 1,000 measured); `fetch` when its own timer runs
 * out first, or when it takes a busy event loop for missed heartbeats and pulls again while the
 * first pull is still served. Here the inbox lives until the server has said each pull is over:
 * its batch delivered, or a status giving what it left undelivered.
 *
 * `onGivenUp` hears of each silence past PULL_SILENCE_LIMIT_MS, once however many pulls it takes to
 * end it (a NATS outage: one every 3 s), with how many messages the pulls still owed: nothing is
 * delivered meanwhile, so a stall of the consumer shows there and not only as a gap in its latency.
 */
export function pullMessages(
  nc: NatsConnection,
  target: { stream: string; durable: string; batch: number },
  signal: AbortSignal,
  onMessage: (msg: Msg) => void,
  onGivenUp: (owed: number) => void = () => undefined,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const inbox = createInbox();
    const next = `$JS.API.CONSUMER.MSG.NEXT.${target.stream}.${target.durable}`;
    /** Asked for and not yet delivered, nor given back by a status. */
    let outstanding = 0;
    let lastHeard = Date.now();
    let lastPulled = 0;
    let lastGivenUp = 0;
    let ended = false;
    const end = (err?: Error) => {
      if (ended) return;
      ended = true;
      clearInterval(watch);
      signal.removeEventListener('abort', settled);
      try {
        sub.unsubscribe();
      } catch {
        // The connection closed: the subscription went with it.
      }
      if (err) reject(err);
      else resolve();
    };
    const pull = () => {
      const batch = target.batch - Math.max(0, outstanding);
      outstanding = Math.max(0, outstanding) + batch;
      lastPulled = Date.now();
      nc.publish(next, JSON.stringify({ batch, expires: nanos(PULL_EXPIRES_MS) }), { reply: inbox });
    };
    const settled = () => {
      if (signal.aborted) {
        if (outstanding <= 0) end();
      } else if (outstanding <= target.batch / 2) pull();
    };
    const sub = nc.subscribe(inbox, {
      callback: (err, msg) => {
        if (err) return end(err);
        lastHeard = Date.now();
        if (msg.subject !== inbox) {
          outstanding--;
          onMessage(msg);
          return settled();
        }
        // A status about our pulls: 408 when one expired, 409 when one ended early (the batch
        // would pass max bytes, a leader changed), each with the messages it left undelivered.
        const code = msg.headers?.code ?? 0;
        const description = msg.headers?.description ?? '';
        if (code === 100) return;
        if ((code === 408 || code === 409) && !/consumer deleted/i.test(description)) {
          outstanding -= Number(msg.headers?.get('Nats-Pending-Messages') || 0);
          return settled();
        }
        end(new Error(`pull refused: ${code} ${description}`.trim()));
      },
    });
    // Every pull ends by its expiry, with its batch or a status. Silence past that means the server
    // dropped them (NATS restarted, the consumer's group without a leader): count them gone.
    const watch = setInterval(() => {
      if (Date.now() - Math.max(lastHeard, lastPulled) < PULL_SILENCE_LIMIT_MS) return;
      if (signal.aborted) return end();
      const owed = outstanding;
      outstanding = 0;
      pull();
      if (lastHeard > lastGivenUp) onGivenUp(owed);
      lastGivenUp = Date.now();
    }, WATCH_MS);
    signal.addEventListener('abort', settled, { once: true });
    if (signal.aborted) return end();
    pull();
  });
}
