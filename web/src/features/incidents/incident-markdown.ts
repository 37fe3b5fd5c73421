import type { Incident } from '@artemis-studio/contracts';

/** A chart as the export holds it: its title and a PNG of it as a data URL. */
export interface ChartImage {
  title: string;
  png: string;
}

/** "2026-12-08 10:41:03Z": a postmortem's times, in UTC to the second, whoever exported it. */
const utc = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 19)}Z`;

/** A table cell: a pipe or a line break would end it. */
const cell = (text: string) =>
  text
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/\s*\n\s*/g, ' ');

/**
 * The incident as Markdown, ready to paste into a postmortem: its alerts, its timeline and its
 * charts (as images inside the file, so it travels alone), and what the timeline had to leave out.
 */
export function incidentMarkdown(incident: Incident, charts: readonly ChartImage[]): string {
  const lines = [
    `# Incident on ${incident.clusterName}: ${utc(incident.from)} to ${utc(incident.to)}`,
    '',
    `Written by Artemis Studio at ${utc(incident.generatedAt)} from what it recorded of the cluster: its alerts, the broker events of their subjects, the actions people took, periods it did not observe, events lost and failovers. Times are UTC.`,
    '',
    '## Alerts',
    '',
  ];
  if (incident.alerts.length === 0) lines.push('No alert was open in this range.');
  else {
    lines.push(
      '| Alert | Subject | Severity | Condition held | Fired | Ended |',
      '| --- | --- | --- | --- | --- | --- |',
    );
    for (const a of incident.alerts)
      lines.push(
        `| ${cell(a.ruleName)} | ${cell(a.subject)} | ${a.severity} | ${utc(a.startedAt)} | ${a.firedAt ? utc(a.firedAt) : 'did not fire'} | ${a.endedAt ? `${utc(a.endedAt)}${a.endReason ? `: ${cell(a.endReason)}` : ''}` : 'still open'} |`,
      );
  }
  lines.push('', '## Timeline', '');
  if (incident.moments.length === 0) lines.push('Nothing was recorded in this range.');
  else {
    lines.push('| Time | What | Subject | |', '| --- | --- | --- | --- |');
    for (const m of incident.moments)
      lines.push(`| ${utc(m.at)} | ${m.kind} | ${cell(m.subject ?? 'cluster')} | ${cell(m.text)} |`);
  }
  if (charts.length) {
    lines.push('', '## Charts');
    for (const c of charts) lines.push('', `### ${c.title}`, '', `![${c.title}](${c.png})`);
  }
  if (incident.leftOut.length) {
    lines.push('', '## Left out', '');
    for (const why of incident.leftOut) lines.push(`- ${why}`);
  }
  return `${lines.join('\n')}\n`;
}
