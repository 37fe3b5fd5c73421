import { RpcError } from '@artemis-studio/bus';
import { ownerFailure } from './owner-client';

describe("an owner RPC's failure, as the API says it", () => {
  const cases: [number, string, string, number | undefined][] = [
    [400, 'invalid', 'INVALID_REQUEST', undefined],
    [404, 'not-found', 'NOT_ON_BROKER', undefined],
    [409, 'conflict', 'BROKER_REFUSED', undefined],
    [423, 'locked', 'BROKER_BUSY', 10],
    [502, 'bad-gateway', 'BROKER_UNREACHABLE', undefined],
    [503, 'unavailable', 'SCRAPER_UNAVAILABLE', 5],
    [504, 'timeout', 'OWNER_TIMEOUT', undefined],
    [500, 'unavailable', 'OWNER_FAILED', undefined],
  ];

  it.each(cases)('%i is %s (%s)', (code, kind, errorCode, retryAfter) => {
    const sut = ownerFailure(new RpcError(code, 'the broker said no'), 'c1', 'purge of orders');
    expect({ kind: sut.kind, code: sut.code, retryAfter: sut.retryAfterSeconds }).toEqual({
      kind,
      code: errorCode,
      retryAfter,
    });
  });

  it('names the cluster when nobody owns it, and what could not be done', () => {
    expect(ownerFailure(new RpcError(503, 'no responder'), 'c1', 'purge of orders').message).toBe(
      'no scraper owns cluster c1 right now; purge of orders cannot be done until one takes it over',
    );
  });
});
