import { anAlert } from '../alert.fixture';
import { alertmanagerAlert } from './alertmanager.channel';
import { emailMessage } from './email.channel';
import { slackMessage } from './slack.channel';
import { teamsMessage } from './teams.channel';
import { webhookChannel } from './webhook.channel';

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

describe('the link back to the console (STUDIO_CONSOLE_URL)', () => {
  const studio = 'https://studio.example.com';
  const page = `${studio}/clusters/${firing.clusterId}/alerts/${firing.id}`;
  const incident = `${studio}/clusters/${firing.clusterId}/incident?alert=${firing.id}`;
  const links = { page, incident };

  it("gives Alertmanager the alert's page as its generatorURL, and the Alerting screen for a test", () => {
    expect(alertmanagerAlert(firing, now, false, studio).generatorURL).toBe(page);
    expect(alertmanagerAlert(firing, now, false, studio).annotations.incident).toBe(incident);
    expect(alertmanagerAlert(firing, now, true, studio).generatorURL).toBe(
      `${studio}/clusters/${firing.clusterId}/alerting`,
    );
    // Without the console's address there is no link to give, rather than a wrong one.
    expect(alertmanagerAlert(firing, now)).not.toHaveProperty('generatorURL');
  });

  it('puts the page among the figures of Slack, Teams and mail', () => {
    expect(JSON.stringify(slackMessage('firing', firing, links).blocks[1])).toContain(`*In Studio:* ${page}`);
    expect(teamsMessage('firing', firing, links).attachments[0].content.body[2]).toEqual({
      type: 'FactSet',
      facts: expect.arrayContaining([{ title: 'In Studio', value: page }]),
    });
    expect(emailMessage('firing', firing, links).text).toContain(`In Studio: ${page}\nIncident: ${incident}`);
    expect(emailMessage('firing', firing).text).not.toContain('In Studio');
  });

  it('adds the page and the incident to the webhook body as url and incidentUrl, signed with the rest of it', async () => {
    let body = '';
    const post = (async (_url: string | URL | Request, init?: RequestInit) => {
      body = String(init?.body);
      return new Response(null, { status: 204 });
    }) as typeof fetch;
    const receiver = { id: 'r', kind: 'webhook' as const, url: 'http://hook', secret: 's', email: null };
    const delivery = { id: 'd', transition: 'firing' as const, alert: firing };
    await webhookChannel.send(receiver, delivery, { post, now, smtpCa: null, consoleUrl: studio });
    expect(JSON.parse(body)).toEqual(
      expect.objectContaining({ deliveryId: 'd', url: page, incidentUrl: incident }),
    );
    await webhookChannel.send(receiver, delivery, { post, now, smtpCa: null, consoleUrl: null });
    expect(JSON.parse(body)).toEqual(expect.objectContaining({ url: null, incidentUrl: null }));
  });
});
