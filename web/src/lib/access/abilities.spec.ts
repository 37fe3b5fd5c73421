import { describe, expect, it } from 'vitest';
import { abilitiesOf } from './abilities';

const me = (grants: { role: 'viewer' | 'operator' | 'admin'; clusters: string }[]) => ({
  id: 'u',
  name: 'u',
  kind: 'local' as const,
  via: 'session' as const,
  groups: [],
  grants,
  administrator: false,
});

describe('abilitiesOf', () => {
  it('gives a viewer nothing to change, and says why', () => {
    const can = abilitiesOf(me([{ role: 'viewer', clusters: '*' }]));
    expect(can.administer).toBe(false);
    expect(can.register).toBe(false);
    expect(can.refusal('prod', 'admin')).toBe('needs the admin role on prod; you are viewer here');
  });

  it('lets a scoped admin change its clusters only', () => {
    const can = abilitiesOf(me([{ role: 'admin', clusters: 'prod-*' }]));
    expect(can.register).toBe(true);
    expect(can.administer).toBe(false);
    expect(can.refusal('prod-eu', 'admin')).toBeNull();
    expect(can.refusal('dev', 'admin')).toMatch(/not granted/);
  });

  it('treats nobody as able to do nothing', () => {
    expect(abilitiesOf(null).administer).toBe(false);
    expect(abilitiesOf(undefined).roleOn('x')).toBeNull();
  });
});
