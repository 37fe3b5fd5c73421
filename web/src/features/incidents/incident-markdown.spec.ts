import type { Incident } from '@artemis-studio/contracts';
import { describe, expect, it } from 'vitest';
import { incidentMarkdown } from './incident-markdown';

const incident: Incident = {
  clusterId: '00000000-0000-4000-8000-000000000002',
  clusterName: 'prod',
  from: '2026-12-08T10:00:00.000Z',
  to: '2026-12-08T11:00:00.000Z',
  generatedAt: '2026-12-08T11:05:00.000Z',
  alerts: [],
  moments: [
    {
      at: '2026-12-08T10:10:00.000Z',
      kind: 'event',
      subject: 'orders',
      text: 'CONSUMER_CLOSED on node a',
      alertId: null,
    },
    {
      at: '2026-12-08T10:20:00.000Z',
      kind: 'action',
      subject: 'a|b',
      text: 'queue.purge of a|b\nby x',
      alertId: null,
    },
  ],
  subjects: [],
  leftOut: ['only the latest 200 broker events of queue orders in the range are on it'],
};

describe("an incident's Markdown", () => {
  it('lists the moments in order in a table that a pipe or a line break does not break', () => {
    const md = incidentMarkdown(incident, [{ title: 'Depth of orders', png: 'data:image/png;base64,AAAA' }]);
    expect(md).toContain('# Incident on prod: 2026-12-08 10:00:00Z to 2026-12-08 11:00:00Z');
    expect(md).toContain('No alert was open in this range.');
    const rows = md.split('\n').filter((l) => l.startsWith('| 2026'));
    expect(rows).toEqual([
      '| 2026-12-08 10:10:00Z | event | orders | CONSUMER_CLOSED on node a |',
      '| 2026-12-08 10:20:00Z | action | a\\|b | queue.purge of a\\|b by x |',
    ]);
    expect(md).toContain('![Depth of orders](data:image/png;base64,AAAA)');
    expect(md).toContain('## Left out\n\n- only the latest 200');
  });
});
