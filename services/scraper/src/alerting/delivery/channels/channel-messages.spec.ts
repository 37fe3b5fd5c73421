import { anAlert } from '../alert.fixture';
import { alertmanagerAlert } from './alertmanager.channel';
import { emailMessage } from './email.channel';
import { slackMessage } from './slack.channel';
import { teamsMessage } from './teams.channel';

const alert = anAlert({
  state: 'resolved',
  value: 0,
  description: 'Queue orders holds 0 messages (threshold 100).',
  endedAt: '2026-12-01T10:09:00.000Z',
  endReason: 'the condition no longer holds',
  lastEvaluatedAt: '2026-12-01T10:09:00.000Z',
});

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

const firing = anAlert({ labels: { team: 'payments', alertname: 'not this one' } });
const now = new Date('2026-12-01T10:05:00.000Z');

describe('what Alertmanager is sent', () => {
  it("labels the alert by rule, cluster, severity and queue, the rule's own labels beside them", () => {
    expect(alertmanagerAlert(firing, now).labels).toEqual({
      alertname: 'orders backlog',
      cluster: 'prod',
      severity: 'critical',
      kind: 'queue-depth',
      queue: 'orders',
      team: 'payments',
    });
  });

  it('keeps a firing alert alive five minutes ahead, and ends a resolved one when it ended', () => {
    expect(alertmanagerAlert(firing, now)).toMatchObject({
      startsAt: '2026-12-01T10:01:00.000Z',
      endsAt: '2026-12-01T10:10:00.000Z',
    });
    const ended = { ...firing, state: 'resolved' as const, endedAt: '2026-12-01T10:04:00.000Z' };
    expect(alertmanagerAlert(ended, now).endsAt).toBe('2026-12-01T10:04:00.000Z');
  });

  it("labels a receiver's test as one, naming no subject a real route could take for an alert", () => {
    const { labels } = alertmanagerAlert({ ...firing, kind: 'node-unreachable', subject: 'test' }, now, true);
    expect(labels).toMatchObject({ kind: 'test' });
    expect(labels.node).toBeUndefined();
  });

  it('names a node alert by node', () => {
    expect(
      alertmanagerAlert({ ...firing, kind: 'node-unreachable', subject: 'primary' }, now).labels.node,
    ).toBe('primary');
  });
});
