import { describe, expect, it } from 'vitest';
import { labelLines, parseLabelLines } from './label-lines';

describe("a rule's labels as lines", () => {
  it('reads name=value lines, skipping blank ones, and writes them back in name order', () => {
    const parsed = parseLabelLines('team = payments\n\nrunbook=https://wiki/x?a=b\n');
    expect(parsed).toEqual({ labels: { team: 'payments', runbook: 'https://wiki/x?a=b' } });
    expect(labelLines({ team: 'payments', owner: 'ops' })).toBe('owner=ops\nteam=payments');
  });

  it('says which line is not a label, and a name given twice', () => {
    expect(parseLabelLines('team=a\nsome text')).toEqual({ error: expect.stringMatching(/^line 2: /) });
    expect(parseLabelLines('1team=a')).toEqual({ error: expect.stringMatching(/^line 1: /) });
    expect(parseLabelLines('team=a\nteam=b')).toEqual({ error: 'line 2: team is given twice' });
  });
});
