import { receiverTakes } from './receiver-choice';

describe('which receivers hear of an alert', () => {
  const payments = { minSeverity: 'warning' as const, matchers: { team: 'payments' } };
  const everyone = { minSeverity: 'warning' as const, matchers: {} };

  it("gives a team's receiver the alerts its team's rules raise, and no other team's", () => {
    expect(receiverTakes(payments, { severity: 'critical', labels: { team: 'payments', env: 'prod' } })).toBe(
      true,
    );
    expect(receiverTakes(payments, { severity: 'critical', labels: { team: 'orders' } })).toBe(false);
    // A rule with no team label is nobody's in particular: the receivers without matchers take it.
    expect(receiverTakes(payments, { severity: 'critical', labels: {} })).toBe(false);
    expect(receiverTakes(everyone, { severity: 'critical', labels: { team: 'orders' } })).toBe(true);
  });

  it('still holds a receiver to its severity', () => {
    expect(receiverTakes(payments, { severity: 'info', labels: { team: 'payments' } })).toBe(false);
    expect(receiverTakes({ ...everyone, minSeverity: 'critical' }, { severity: 'warning', labels: {} })).toBe(
      false,
    );
  });

  it('asks for every matcher, each with its value', () => {
    const both = { minSeverity: 'info' as const, matchers: { team: 'payments', env: 'prod' } };
    expect(receiverTakes(both, { severity: 'info', labels: { team: 'payments', env: 'prod' } })).toBe(true);
    expect(receiverTakes(both, { severity: 'info', labels: { team: 'payments', env: 'test' } })).toBe(false);
  });
});
