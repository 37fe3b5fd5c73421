import { z } from 'zod';
import { Instant, Uuid } from '../common';
import { AlertSchema } from './alerts';

/**
 * `GET /api/v1/clusters/{id}/incident` (issue 61, item 3): one cluster's incident over a time range,
 * as one ordered timeline a postmortem starts from. Opened from an alert (`alert`: from half an hour
 * before its condition first held to half an hour after it ended, or now) or over a range by hand
 * (`from`, `to`), at most `INCIDENT_MAX_DAYS` long.
 */
export const INCIDENT_MAX_DAYS = 7;
/** How far either side of an alert its incident reaches by default: what led to it, what ended it. */
export const INCIDENT_MARGIN_MS = 30 * 60_000;
/** The subjects (queues, addresses, nodes of the alerts) whose broker events and charts it holds. */
export const INCIDENT_SUBJECTS_SHOWN = 8;
/** Per subject, and for the cluster's unobserved periods: past this, the timeline says it was cut. */
export const INCIDENT_EVENTS_PER_SUBJECT = 200;
/** Alerts and actions in the range past which the timeline says it was cut. */
export const INCIDENT_ALERTS_SHOWN = 100;
export const INCIDENT_ACTIONS_SHOWN = 200;

export const IncidentQuerySchema = z
  .object({
    alert: Uuid.optional(),
    from: Instant.optional(),
    to: Instant.optional(),
  })
  .refine((q) => (q.alert !== undefined) !== (q.from !== undefined || q.to !== undefined), {
    message: 'give either alert, or from and to',
  })
  .refine((q) => q.alert !== undefined || (q.from !== undefined && q.to !== undefined), {
    message: 'from and to go together',
    path: ['to'],
  })
  .refine((q) => q.from === undefined || q.to === undefined || Date.parse(q.from) < Date.parse(q.to), {
    message: 'from must be before to',
    path: ['to'],
  })
  .refine(
    (q) =>
      q.from === undefined ||
      q.to === undefined ||
      Date.parse(q.to) - Date.parse(q.from) <= INCIDENT_MAX_DAYS * 86_400_000,
    { message: `an incident spans at most ${INCIDENT_MAX_DAYS} days`, path: ['to'] },
  );
export type IncidentQuery = z.infer<typeof IncidentQuerySchema>;

/**
 * What a moment is: an alert's transition, a broker event of a subject involved, a person's action
 * from the audit trail, a period Studio did not observe the notifications, broker events lost at a
 * bound, a node that became live or backup.
 */
export const INCIDENT_MOMENT_KINDS = ['alert', 'event', 'action', 'unobserved', 'drop', 'role'] as const;
export type IncidentMomentKind = (typeof INCIDENT_MOMENT_KINDS)[number];

export const IncidentMomentSchema = z.object({
  at: Instant,
  kind: z.enum(INCIDENT_MOMENT_KINDS),
  /** The queue, address or node it concerns; null for the cluster as a whole. */
  subject: z.string().nullable(),
  /** What happened, in words, the same in the console and the export. */
  text: z.string(),
  /** The alert it belongs to, for an alert's moments. */
  alertId: Uuid.nullable(),
});
export type IncidentMoment = z.infer<typeof IncidentMomentSchema>;

export const IncidentSubjectSchema = z.object({
  kind: z.enum(['queue', 'address', 'node']),
  name: z.string(),
});
export type IncidentSubject = z.infer<typeof IncidentSubjectSchema>;

export const IncidentSchema = z.object({
  clusterId: Uuid,
  clusterName: z.string(),
  from: Instant,
  to: Instant,
  generatedAt: Instant,
  /** The alerts open at any time in the range, oldest first. */
  alerts: z.array(AlertSchema),
  /** Every moment in the range, oldest first. */
  moments: z.array(IncidentMomentSchema),
  /** The alerts' subjects, charted beside the timeline: at most `INCIDENT_SUBJECTS_SHOWN`. */
  subjects: z.array(IncidentSubjectSchema),
  /** What the timeline had to leave out, in words (a bound reached, a source unreadable); never silent. */
  leftOut: z.array(z.string()),
});
export type Incident = z.infer<typeof IncidentSchema>;
