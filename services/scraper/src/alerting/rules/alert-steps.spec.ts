import { stepsOf, type OpenAlert } from './alert-steps';

const T0 = new Date('2026-12-01T10:00:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const rule = { id: 'r1', forSeconds: 60, retired: null };
const exists = () => true;
const pending = (startedAt = T0): OpenAlert => ({
  id: 'a1',
  ruleId: 'r1',
  subject: 'orders',
  state: 'pending',
  startedAt,
});
const firing: OpenAlert = { ...pending(), state: 'firing' };
const holds = (value = 10) => [{ subject: 'orders', holds: true, value }];

describe('stepsOf: pending, then firing after the rule\'s "for", then resolved', () => {
  it('opens a pending alert when the condition first holds', () => {
    expect(stepsOf(rule, holds(), [], T0, exists)).toEqual([
      { kind: 'open', ruleId: 'r1', subject: 'orders', state: 'pending', value: 10 },
    ]);
  });

  it('fires at once when the rule has no "for"', () => {
    expect(stepsOf({ ...rule, forSeconds: 0 }, holds(), [], T0, exists)).toMatchObject([{ state: 'firing' }]);
  });

  it('keeps it pending before "for" has passed, and fires at the first tick after', () => {
    expect(stepsOf(rule, holds(12), [pending()], at(59), exists)).toEqual([
      { kind: 'keep', alertId: 'a1', value: 12 },
    ]);
    expect(stepsOf(rule, holds(13), [pending()], at(60), exists)).toEqual([
      { kind: 'fire', alertId: 'a1', value: 13 },
    ]);
  });

  it('drops a pending alert whose condition cleared: nobody was told, nobody is', () => {
    const cleared = [{ subject: 'orders', holds: false, value: 0 }];
    expect(stepsOf(rule, cleared, [pending()], at(30), exists)).toEqual([{ kind: 'drop', alertId: 'a1' }]);
  });

  it('resolves a firing alert whose condition cleared, with the figure that cleared it', () => {
    const cleared = [{ subject: 'orders', holds: false, value: 0 }];
    expect(stepsOf(rule, cleared, [firing], at(300), exists)).toEqual([
      { kind: 'resolve', alertId: 'a1', value: 0, reason: 'the condition no longer holds' },
    ]);
  });

  it('neither fires nor resolves on an unknown figure', () => {
    const unknown = [{ subject: 'orders', holds: null, value: null }];
    expect(stepsOf(rule, unknown, [pending()], at(600), exists)).toEqual([
      { kind: 'keep', alertId: 'a1', value: null },
    ]);
    expect(stepsOf(rule, unknown, [], at(600), exists)).toEqual([]);
    expect(stepsOf(rule, null, [firing], at(600), exists)).toEqual([
      { kind: 'keep', alertId: 'a1', value: null },
    ]);
  });

  it('resolves the alert of a queue that is gone, or that the rule no longer matches, saying which', () => {
    expect(stepsOf(rule, [], [firing], at(600), () => false)).toEqual([
      { kind: 'resolve', alertId: 'a1', value: null, reason: 'orders no longer exists' },
    ]);
    expect(stepsOf(rule, [], [firing], at(600), () => true)).toMatchObject([
      { reason: 'no longer matched by the rule' },
    ]);
  });

  it('ends every alert of a disabled or deleted rule', () => {
    const retired = { ...rule, retired: 'the rule was disabled' };
    expect(
      stepsOf(retired, holds(), [firing, { ...pending(), id: 'a2', subject: 'x' }], at(600), exists),
    ).toEqual([
      { kind: 'resolve', alertId: 'a1', value: null, reason: 'the rule was disabled' },
      { kind: 'drop', alertId: 'a2' },
    ]);
  });
});
