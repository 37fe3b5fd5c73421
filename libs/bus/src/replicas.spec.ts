import type { ServerInfo } from 'nats';
import { serverList } from './connection';
import { replicasFor } from './replicas';

describe('replicasFor', () => {
  const single = { server_id: 'a' } as ServerInfo;
  const clustered = { server_id: 'a', cluster: 'studio' } as ServerInfo;

  it('keeps three copies on a clustered server and one on a single one by default', () => {
    expect(replicasFor('auto', clustered)).toBe(3);
    expect(replicasFor('auto', single)).toBe(1);
    expect(replicasFor('auto', undefined)).toBe(1);
  });

  it('keeps what the setting says when it says a number', () => {
    expect(replicasFor(5, clustered)).toBe(5);
    expect(replicasFor(1, clustered)).toBe(1);
  });
});

describe('serverList', () => {
  it('reads a comma-separated NATS_URL as one server per node', () => {
    expect(serverList('nats://a:4222, nats://b:4222,nats://c:4222')).toEqual([
      'nats://a:4222',
      'nats://b:4222',
      'nats://c:4222',
    ]);
    expect(serverList('nats://a:4222')).toEqual(['nats://a:4222']);
    expect(serverList(['nats://a:4222'])).toEqual(['nats://a:4222']);
  });
});
