import { ReturnsWindow } from './returns-window';

describe('ReturnsWindow', () => {
  it('says to pause once more than the percentage of what was sent came back', () => {
    const window = new ReturnsWindow({ percent: 20, withinSeconds: 60 }, 0);
    expect(window.observe(500, 25, 0)).toBeNull();
    expect(window.observe(1_000, 50, 10)).toBeNull();
    expect(window.observe(1_500, 75, 16)).toBe(
      '16 of the 75 messages sent in the last 60 s came back (more than 20%)',
    );
  });

  it('forgets what was sent and returned before the window', () => {
    const window = new ReturnsWindow({ percent: 50, withinSeconds: 10 }, 0);
    // A bad start: 40 of 100 back, under half.
    expect(window.observe(5_000, 100, 40)).toBeNull();
    // Later, 10 more sent and 5 more back: within the last 10 s that is 5 of 10, not more than half.
    expect(window.observe(16_000, 110, 45)).toBeNull();
    // 10 more and all 10 back: 15 of 20 within the window.
    expect(window.observe(20_000, 120, 55)).toBe(
      '15 of the 20 messages sent in the last 10 s came back (more than 50%)',
    );
  });

  it('never pauses a job that has sent nothing in the window', () => {
    const window = new ReturnsWindow({ percent: 1, withinSeconds: 5 }, 0);
    expect(window.observe(10_000, 0, 3)).toBeNull();
  });
});
