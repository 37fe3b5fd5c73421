import { atLeast, clusterPatternMatches, isAdministrator, roleOn } from '@artemis-studio/contracts';
import { capToToken } from './grants';

describe('grants', () => {
  it.each([
    ['*', 'anything', true],
    ['prod-*', 'prod-eu', true],
    ['prod-*', 'staging-eu', false],
    ['prod-eu', 'prod-eu', true],
    ['prod-eu', 'prod-eu-2', false],
    ['a.b', 'axb', false],
    ['*-eu', 'prod-eu', true],
  ])('pattern %s on %s: %s', (pattern, name, matches) => {
    expect(clusterPatternMatches(pattern, name)).toBe(matches);
  });

  it('takes the strongest matching grant', () => {
    const grants = [
      { role: 'viewer' as const, clusters: '*' },
      { role: 'operator' as const, clusters: 'prod-*' },
    ];
    expect(roleOn(grants, 'prod-eu')).toBe('operator');
    expect(roleOn(grants, 'dev')).toBe('viewer');
    expect(roleOn([{ role: 'admin', clusters: 'prod-*' }], 'dev')).toBeNull();
  });

  it('ranks roles', () => {
    expect(atLeast('admin', 'operator')).toBe(true);
    expect(atLeast('viewer', 'operator')).toBe(false);
    expect(atLeast(null, 'viewer')).toBe(false);
  });

  it('calls only admin on every cluster an administrator', () => {
    expect(isAdministrator([{ role: 'admin', clusters: '*' }])).toBe(true);
    expect(isAdministrator([{ role: 'admin', clusters: 'prod-*' }])).toBe(false);
  });

  it('never lets a token exceed its own grant or its owner', () => {
    const owner = [
      { role: 'admin' as const, clusters: 'prod-*' },
      { role: 'viewer' as const, clusters: '*' },
    ];
    const capped = capToToken(owner, { role: 'operator', clusters: '*' });
    expect(roleOn(capped, 'prod-eu')).toBe('operator');
    expect(roleOn(capped, 'dev')).toBe('viewer');
    expect(
      isAdministrator(capToToken([{ role: 'viewer', clusters: '*' }], { role: 'admin', clusters: '*' })),
    ).toBe(false);
    expect(roleOn(capToToken(owner, { role: 'admin', clusters: 'staging-*' }), 'staging-1')).toBe('viewer');
    expect(roleOn(capToToken(owner, { role: 'admin', clusters: 'staging-*' }), 'prod-1')).toBeNull();
  });
});
