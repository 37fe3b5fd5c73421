import { anAlert } from './alert.fixture';
import { emailMessage, slackMessage, teamsMessage } from './notification-shapes';

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
