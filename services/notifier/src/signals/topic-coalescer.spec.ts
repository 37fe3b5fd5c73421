import { TopicCoalescer } from './topic-coalescer';

describe('TopicCoalescer', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('sends one signal per (cluster, topic) per window, at the end of it', () => {
    const sent: string[] = [];
    const sut = new TopicCoalescer(
      () => 1000,
      (c, t) => sent.push(`${c}/${t}`),
    );
    for (let i = 0; i < 500; i++) sut.touch('c1', 'consumers');
    sut.touch('c1', 'queues');
    sut.touch('c2', 'consumers');
    expect(sent).toEqual([]);
    jest.advanceTimersByTime(999);
    expect(sent).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(sent.sort()).toEqual(['c1/consumers', 'c1/queues', 'c2/consumers']);
    expect(sut.absorbed).toBe(499);
  });

  it('opens a new window after the signal, with the window length in force then', () => {
    const sent: number[] = [];
    let window = 1000;
    const sut = new TopicCoalescer(
      () => window,
      () => sent.push(Date.now()),
    );
    sut.touch('c', 'sessions');
    jest.advanceTimersByTime(1000);
    window = 50;
    sut.touch('c', 'sessions');
    jest.advanceTimersByTime(50);
    expect(sent).toHaveLength(2);
  });

  it('sends nothing scheduled after stop', () => {
    const sent: string[] = [];
    const sut = new TopicCoalescer(
      () => 10,
      (c) => sent.push(c),
    );
    sut.touch('c', 'sessions');
    sut.stop();
    jest.advanceTimersByTime(100);
    expect(sent).toEqual([]);
  });
});
