import { exportedLine } from '../queue-messages/exported-message.fixture';
import { importParts } from './import-parts';

const message = (data: string) => exportedLine(data);

describe('the parts of an import', () => {
  it('sends at most 100 messages a part, in order, at once without a rate', () => {
    const parts = [
      ...importParts(
        Array.from({ length: 250 }, (_, i) => message(`m${i}`)),
        undefined,
        1000,
      ),
    ];
    expect(parts.map((p) => p.messages.length)).toEqual([100, 100, 50]);
    expect(parts.map((p) => p.notBefore)).toEqual([1000, 1000, 1000]);
    expect(parts.flatMap((p) => p.messages.map((m) => m.body.data))[249]).toBe('m249');
  });

  it('cuts parts to half a second of the rate and schedules each by its first message', () => {
    const parts = [
      ...importParts(
        Array.from({ length: 50 }, (_, i) => message(`m${i}`)),
        20,
        0,
      ),
    ];
    expect(parts.map((p) => p.messages.length)).toEqual([10, 10, 10, 10, 10]);
    expect(parts.map((p) => p.notBefore)).toEqual([0, 500, 1000, 1500, 2000]);
  });

  it('keeps a part near a quarter megabyte, counted in the bytes NATS carries, whatever its count', () => {
    // 100,000 characters, 200,000 bytes each: counted as characters, three would go in one part.
    const big = message('é'.repeat(100_000));
    expect([...importParts([big, big, big, big], undefined, 0)].map((p) => p.messages.length)).toEqual([
      2, 2,
    ]);
  });
});
