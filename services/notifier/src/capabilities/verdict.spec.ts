import { assessNotifications, classifyFailure, sameVerdict, type ClusterNotificationState } from './verdict';

const at = new Date('2026-11-29T10:00:00Z');
const base: ClusterNotificationState = {
  liveNodes: [{ name: 'a', amqpUrl: 'amqp://h:61616' }],
  subscriptions: [{ node: 'a', state: 'subscribed' }],
  reconciled: true,
  user: 'studio',
  jolokiaUser: 'scraper',
};
const ring = { queue: 'artemis-studio.c1', size: 100_000, since: at.toISOString(), discarded: 0 };

describe('assessNotifications', () => {
  it('is UNKNOWN only until the first reconcile', () => {
    expect(assessNotifications({ ...base, reconciled: false }, at).status).toBe('UNKNOWN');
    expect(assessNotifications({ ...base, liveNodes: null }, at).status).toBe('UNKNOWN');
  });

  it('is AVAILABLE on one subscribed node, still shipping the plugin snippet and saying why', () => {
    const verdict = assessNotifications(base, at);
    expect(verdict).toMatchObject({ status: 'AVAILABLE', asOf: at.toISOString() });
    expect(verdict.reason).toMatch(
      /idle broker and a broker without NotificationActiveMQServerPlugin look the same/,
    );
    expect(verdict.snippet).toContain('NotificationActiveMQServerPlugin');
  });

  it("is durable when every live node's notifications come from Studio's ring", () => {
    const verdict = assessNotifications({ ...base, liveNodes: [{ ...base.liveNodes![0], ring }] }, at);
    expect(verdict).toMatchObject({ status: 'AVAILABLE', mode: 'durable' });
    expect(verdict.reason).toMatch(/durable ring .* up to 100,000 notifications .* loses none/);
  });

  it('is non-durable without a ring, says why, and what it costs', () => {
    const off = assessNotifications(
      { ...base, liveNodes: [{ ...base.liveNodes![0], noRing: 'turned off (ring-size is 0)' }] },
      at,
    );
    expect(off).toMatchObject({ status: 'AVAILABLE', mode: 'non-durable' });
    expect(off.reason).toMatch(
      /not durably: .* lost, and stated as an unobserved period\. No ring on a: turned off/,
    );
    expect(off.snippet).toContain('NotificationActiveMQServerPlugin');
  });

  it("gives the management.xml that lets the scraper's user make the ring when the broker refused it", () => {
    const refused = assessNotifications(
      {
        ...base,
        liveNodes: [
          { ...base.liveNodes![0], noRing: 'the broker refused to make it: Forbidden' },
          { name: 'b', amqpUrl: 'amqp://b:61616', ring },
        ],
      },
      at,
    );
    expect(refused.mode).toBe('non-durable');
    expect(refused.snippet).toContain('<access method="createQueue" roles="<role of scraper>"/>');
    expect(refused.snippet).toContain('destroyQueue');
  });

  it('names a permission refusal with the security-setting snippet', () => {
    const verdict = assessNotifications(
      {
        ...base,
        user: 'observer',
        subscriptions: [{ node: 'a', state: 'failed', kind: 'permission', message: 'AMQ229213 ...' }],
      },
      at,
    );
    expect(verdict.status).toBe('UNAVAILABLE');
    expect(verdict.snippet).toContain('<security-setting match="activemq.notifications">');
    expect(verdict.snippet).toContain('createNonDurableQueue');
  });

  it('asks for an AMQP acceptor and URL when no live node has one', () => {
    const verdict = assessNotifications(
      { ...base, liveNodes: [{ name: 'a', amqpUrl: null }], subscriptions: [] },
      at,
    );
    expect(verdict).toMatchObject({
      status: 'UNAVAILABLE',
      snippet: expect.stringContaining('protocols=CORE,AMQP'),
    });
  });

  it('states a refused connection with its reason, and no live node as such', () => {
    const refused = assessNotifications(
      {
        ...base,
        subscriptions: [{ node: 'a', state: 'failed', kind: 'unreachable', message: 'connect ECONNREFUSED' }],
      },
      at,
    );
    expect(refused).toMatchObject({
      status: 'UNAVAILABLE',
      reason: 'cannot subscribe on a: connect ECONNREFUSED',
    });
    expect(assessNotifications({ ...base, liveNodes: [], subscriptions: [] }, at).reason).toMatch(
      /no live node/,
    );
  });

  it('compares verdicts without their asOf', () => {
    const a = assessNotifications(base, at);
    expect(sameVerdict(a, assessNotifications(base, new Date()))).toBe(true);
    expect(sameVerdict(a, assessNotifications({ ...base, liveNodes: [], subscriptions: [] }, at))).toBe(
      false,
    );
  });
});

describe('classifyFailure', () => {
  it.each([
    ['AMQ229213: User: observer does not have permission', 'permission'],
    [new Error('Failed to authenticate: 1'), 'login'],
    [new Error('connect ECONNREFUSED 127.0.0.1:61716'), 'unreachable'],
    [{ value: [{ value: 'amqp:internal-error' }, { value: 'AMQ119016: not authorized' }] }, 'permission'],
    ['something else', 'other'],
  ])('%p is %s', (error, kind) => {
    expect(classifyFailure(error).kind).toBe(kind);
  });
});
