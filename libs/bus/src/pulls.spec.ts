import { pulledInfo } from './pulls';

describe('pulledInfo', () => {
  it('reads the stream sequence and delivery count from the acknowledgement subject', () => {
    expect(pulledInfo('$JS.ACK.STUDIO_EVENTS.event-store.3.1042.2201.1733300000000000000.17')).toEqual({
      deliveryCount: 3,
      streamSeq: 1042,
    });
  });

  it('reads the newer form, with a domain, an account hash and a random token', () => {
    expect(
      pulledInfo('$JS.ACK._.ACCHASH.STUDIO_EVENTS.event-store.1.77.80.1733300000000000000.0.k3j4'),
    ).toEqual({ deliveryCount: 1, streamSeq: 77 });
  });

  it('finds nothing in a subject the server did not make', () => {
    expect(pulledInfo(undefined)).toBeUndefined();
    expect(pulledInfo('_INBOX.abc.1')).toBeUndefined();
    expect(pulledInfo('$JS.ACK.too.short')).toBeUndefined();
  });
});
