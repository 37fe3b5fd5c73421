import { brokerUserId, matchedSelectors, scanBodies } from './body-scan';

interface Fake {
  message_id?: unknown;
  body: string;
}

/** A queue read `max` at a time, counting the reads: the scan reads each message once. */
function queueOf(messages: Fake[]) {
  let at = 0;
  const reads: number[] = [];
  return {
    reads,
    read: async (max: number) => {
      reads.push(max);
      const part = messages.slice(at, at + max);
      at += part.length;
      return part;
    },
  };
}

const rejected = (m: Fake) => m.body.includes('REJECTED');
const orders = (n: number): Fake[] =>
  Array.from({ length: n }, (_, i) => ({ message_id: `o-${i}`, body: i % 3 === 0 ? 'REJECTED' : 'OK' }));

describe('scanBodies', () => {
  const budget = { messages: 1_000_000, ms: 60_000 };

  it('reads every message once, to the end, and keeps the matches with their broker ids', async () => {
    const queue = queueOf(orders(1_001));
    const { matches, scan } = await scanBodies(queue.read, rejected, { budget, perRead: 100 });
    expect(scan).toMatchObject({
      scanned: 1_001,
      matched: 334,
      unselectable: 0,
      complete: true,
      stoppedBy: null,
    });
    expect(matches[1].userId).toBe('ID:o-3');
    expect(queue.reads).toHaveLength(11);
  });

  it('stops at its budget of messages or time, and says which', async () => {
    const byCount = await scanBodies(queueOf(orders(1_000)).read, rejected, {
      budget: { messages: 250, ms: 60_000 },
      perRead: 100,
    });
    expect(byCount.scan).toMatchObject({ scanned: 250, complete: false, stoppedBy: 'messages' });
    let clock = 0;
    const byTime = await scanBodies(queueOf(orders(1_000)).read, rejected, {
      budget: { messages: 10_000, ms: 1_000 },
      perRead: 100,
      now: () => (clock += 300),
    });
    expect(byTime.scan).toMatchObject({ scanned: 300, complete: false, stoppedBy: 'time' });
  });

  it('stops once a page is filled, still counting every match it read', async () => {
    const { matches, scan } = await scanBodies(queueOf(orders(1_000)).read, rejected, {
      budget,
      enough: 5,
      perRead: 100,
    });
    expect(matches).toHaveLength(5);
    expect(scan).toMatchObject({ scanned: 100, matched: 34, stoppedBy: 'page', complete: false });
  });

  it('keeps a match without an id, or sharing it, but no selector could name it alone', async () => {
    const messages: Fake[] = [
      { message_id: 'twin', body: 'REJECTED' },
      { message_id: 'twin', body: 'OK' },
      { body: 'REJECTED' },
      { message_id: 'one', body: 'REJECTED' },
    ];
    const { matches, scan } = await scanBodies(queueOf(messages).read, rejected, { budget });
    expect(matches.map((m) => m.userId)).toEqual([null, null, 'ID:one']);
    expect(scan).toMatchObject({ matched: 3, unselectable: 2 });
  });

  it('counts the messages the expression could not read, with the first reason', async () => {
    const { scan } = await scanBodies(
      queueOf(orders(10)).read,
      (m) => (m.body === 'OK' ? { failed: 'no such field: status' } : true),
      { budget },
    );
    expect(scan).toMatchObject({ matched: 4, failed: 6, firstFailure: 'no such field: status' });
  });
});

describe('brokerUserId', () => {
  it('names a message as the broker selector knows it (checked on Artemis 2.40)', () => {
    expect(brokerUserId('order-1')).toBe('ID:order-1');
    expect(brokerUserId('ID:abc')).toBe('ID:abc');
    expect(brokerUserId(42)).toBe('ID:42');
    expect(brokerUserId(Buffer.from('0102ff00000000000000000000000000', 'hex'))).toBe(
      'ID:0102ff00-0000-0000-0000-000000000000',
    );
    expect(brokerUserId(undefined)).toBeNull();
    expect(brokerUserId(Buffer.from([1, 2]))).toBeNull();
  });
});

describe('matchedSelectors', () => {
  it('narrows the operator selector to the matched ids, split and quoted', () => {
    expect(matchedSelectors("region = 'eu'", ['ID:a', "ID:it's", 'ID:c'], 2)).toEqual([
      "(region = 'eu') AND AMQUserID IN ('ID:a', 'ID:it''s')",
      "(region = 'eu') AND AMQUserID IN ('ID:c')",
    ]);
    expect(matchedSelectors('', ['ID:a'])).toEqual(["AMQUserID IN ('ID:a')"]);
  });
});
