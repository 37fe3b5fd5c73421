import { StreamAdmission } from './stream-admission';

describe('StreamAdmission', () => {
  it('refuses past the per-address limit, then admits again once a stream ends', () => {
    const sut = new StreamAdmission({ total: 10, perAddress: 2 });
    expect([sut.admit('a'), sut.admit('a'), sut.admit('a'), sut.admit('b')]).toEqual([
      'ok',
      'ok',
      'address',
      'ok',
    ]);
    sut.release('a');
    expect(sut.admit('a')).toBe('ok');
  });

  it('refuses past the total whoever asks, and a release without an admission changes nothing', () => {
    const sut = new StreamAdmission({ total: 2, perAddress: 5 });
    expect([sut.admit('a'), sut.admit('b'), sut.admit('c')]).toEqual(['ok', 'ok', 'total']);
    sut.release('c');
    expect(sut.admit('c')).toBe('total');
    sut.release('a');
    expect(sut.admit('c')).toBe('ok');
  });
});
