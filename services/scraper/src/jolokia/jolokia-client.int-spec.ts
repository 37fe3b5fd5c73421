import { brokerProfile, testConfig, type BrokerProfile } from '@artemis-studio/testing';
import { CallLimiter } from './call-limiter';
import { JolokiaClient, defaultOrigin, type JolokiaTarget } from './jolokia-client';

describe('JolokiaClient against the real broker', () => {
  let broker: BrokerProfile;
  let target: JolokiaTarget;
  const sut = new JolokiaClient(new CallLimiter(1000));
  const version = { type: 'read' as const, mbean: 'java.lang:type=Runtime', attribute: 'Uptime' };

  beforeAll(async () => {
    broker = await brokerProfile(testConfig.brokerProfile);
    const url = broker.nodes[0].jolokiaUrl;
    target = {
      nodeKey: 'n',
      jolokiaUrl: url,
      origin: defaultOrigin(url),
      auth: { username: broker.user, password: broker.password },
    };
  });

  it('passes strict Origin checking with the default Origin and answers in order', async () => {
    const answers = await sut.bulk(target, [version, { type: 'read', mbean: 'java.lang:type=Nope' }]);
    expect(answers.map((a) => a.status)).toEqual([200, 404]);
  });

  it.each([
    [
      'a wrong password',
      // Not the broker's user, and new each run: failed logins get a user name blocked (see
      // below), for every client, for as long as the broker runs.
      { auth: { username: `wrong-${Date.now()}`, password: 'wrong' } },
      'unauthorized',
      /refused the login \(HTTP 403\)/,
    ],
    [
      'a user outside the console role',
      { auth: { username: 'observer', password: 'observer' } },
      'unauthorized',
      /refused the login/,
    ],
    [
      'a foreign Origin',
      { origin: 'http://elsewhere.example' },
      'forbidden',
      /refused Origin http:\/\/elsewhere.example/,
    ],
    [
      'a node that is down',
      { jolokiaUrl: 'http://127.0.0.1:9/console/jolokia' },
      'unreachable',
      /ECONNREFUSED/,
    ],
  ])('names %s', async (_what, override, kind, message) => {
    await expect(sut.bulk({ ...target, ...override }, [version])).rejects.toMatchObject({
      kind,
      message: expect.stringMatching(message),
    });
  });

  it('names a user name the console blocks after failed logins, and for how long', async () => {
    const blocked = { ...target, auth: { username: `blocked-${Date.now()}`, password: 'wrong' } };
    const kinds: string[] = [];
    let last: unknown;
    for (let attempt = 0; attempt < 8 && !kinds.includes('throttled'); attempt++) {
      last = await sut.bulk(blocked, [version]).catch((err: unknown) => err);
      kinds.push((last as { kind: string }).kind);
    }
    expect(kinds[0]).toBe('unauthorized');
    expect(last).toMatchObject({
      kind: 'throttled',
      retryAfterMs: expect.any(Number),
      message: expect.stringMatching(
        /refusing logins for user blocked-\d+ after failed ones \(HTTP 429\), for \d+ s more/,
      ),
    });
  });
});
