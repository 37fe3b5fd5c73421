import type { Alert } from '@artemis-studio/contracts';
import { emailMessage, slackMessage, teamsMessage } from './notification-shapes';

const alert: Alert = {
  id: 'a1',
  clusterId: 'c1',
  clusterName: 'prod',
  ruleId: 'r1',
  ruleName: 'orders backlog',
  kind: 'queue-depth',
  severity: 'critical',
  labels: {},
  subject: 'orders',
  state: 'resolved',
  value: 0,
  threshold: 100,
  description: 'Queue orders holds 0 messages (threshold 100).',
  startedAt: '2026-12-01T10:00:00.000Z',
  firedAt: '2026-12-01T10:01:00.000Z',
  endedAt: '2026-12-01T10:09:00.000Z',
  endReason: 'the condition no longer holds',
  lastEvaluatedAt: '2026-12-01T10:09:00.000Z',
  silencedBy: null,
};

describe('the shapes chat tools and mail take', () => {
  it('gives Slack a text for the notification and blocks for the channel', () => {
    const message = slackMessage('resolved', alert);
    expect(message.text).toBe('RESOLVED: orders backlog on orders (prod)');
    expect(message.blocks[0]).toEqual({
      type: 'section',
      text: { type: 'mrkdwn', text: `*RESOLVED: orders backlog on orders (prod)*\n${alert.description}` },
    });
    expect(JSON.stringify(message.blocks[1])).toContain('the condition no longer holds');
  });

  it('gives Teams one Adaptive Card, green once resolved', () => {
    const [attachment] = teamsMessage('resolved', alert).attachments;
    expect(attachment.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(attachment.content.body[0]).toMatchObject({
      color: 'Good',
      text: expect.stringMatching(/^RESOLVED/),
    });
    expect(teamsMessage('firing', alert).attachments[0].content.body[0]).toMatchObject({
      color: 'Attention',
    });
  });

  it('gives mail a subject with the severity and a plain body with the figures', () => {
    const mail = emailMessage('firing', alert);
    expect(mail.subject).toBe('[critical] FIRING: orders backlog on orders (prod)');
    expect(mail.text).toContain('Cluster: prod\nSubject: orders\nSeverity: critical');
  });
});
