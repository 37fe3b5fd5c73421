import { JobPace, pacedBatchSize } from './job-pace';

describe('pacedBatchSize', () => {
  it('keeps the batch size asked for when the job has no rate', () => {
    expect(pacedBatchSize(2_000, undefined)).toBe(2_000);
  });

  it('cuts a batch to about half a second at the rate, never below one message', () => {
    expect(pacedBatchSize(2_000, 50)).toBe(25);
    expect(pacedBatchSize(2_000, 1)).toBe(1);
    expect(pacedBatchSize(10, 1_000)).toBe(10);
  });
});

describe('JobPace', () => {
  it('spaces batches so the n-th message goes n / rate seconds after the start', () => {
    const pace = new JobPace(50, 0);
    expect(pace.delayAfter(13, 10)).toBe(250);
    // The broker took 300 ms for the second batch: the wait is what is left of its 260 ms.
    expect(pace.delayAfter(13, 560)).toBe(0);
    expect(pace.delayAfter(13, 600)).toBe(180);
  });

  it('does not wait at all without a rate', () => {
    expect(new JobPace(null, 0).delayAfter(2_000, 0)).toBe(0);
  });

  it('starts a new pace rather than bursting to catch up when more than a second behind', () => {
    const pace = new JobPace(10, 0);
    expect(pace.delayAfter(1, 5_000)).toBe(0);
    // Without the new pace, the next nine messages would go at once.
    expect(pace.delayAfter(1, 5_000)).toBe(100);
  });

  it('starts again from now after a wait on the start gate', () => {
    const pace = new JobPace(10, 0);
    pace.delayAfter(5, 0);
    pace.restart(60_000);
    expect(pace.delayAfter(5, 60_000)).toBe(500);
  });
});
