/**
 * What the live stream says about an outbox event, and to whom (docs/live-updates.md "Events").
 * Only events about a job are streamed; each is small (its type, the job, the new status or the
 * changed field names): the console refetches what it shows. Who receives it is decided per
 * recipient by the reads' rules: first the job's visibility (`visibleJobUuids`, the jobs module's
 * one rule), then the event's audience below.
 */
import type { LiveOutboxRow } from '../../../events/index.ts';
import { readableVisibilities } from '../job-notes/index.ts';
import { STATUS_NAMES, type JobScope } from '../jobs/index.ts';

/** One event as the stream sends it (the `data` of an SSE message, as JSON). */
export interface LiveEvent {
  /** The outbox row id (bigserial, as text): the SSE `id`, given back as Last-Event-ID. */
  id: string;
  /** The domain event's name, e.g. `job.status_changed`. */
  type: string;
  job_uuid: string;
  /** JOB-000123 */
  reference: string;
  /** The status after the change (job.created, job.status_changed), else absent. */
  status_id?: number;
  status?: string;
  /** Names of the changed fields (job.updated), else absent. */
  fields?: string[];
  /** The UTC instant of the change, ISO 8601. */
  at: string;
}

/**
 * Who may hear an event, beyond seeing its job:
 * - `job`: everyone who sees the job (the job's own fields and state, which every party reads);
 * - `note`: those who may read the note (job notes' rule: staff all; tenants 'tenant' and 'both';
 *   contractors 'contractor' and 'both'; landlords none);
 * - `thread`: staff, and the tenant, contractor or landlord whose thread a conversation message is in
 *   (never the internal thread);
 * - `staff`: SysOps, agency accounts and agents only (money, SLA, hazards, approvals, files that
 *   may be internal, and any job event not named here).
 */
export type Audience = 'job' | 'note' | 'thread' | 'staff';

/** The audience of each job event; an event with a job and no entry here is `staff`. */
export const AUDIENCES: Readonly<Record<string, Audience>> = {
  'job.created': 'job',
  'job.updated': 'job',
  'job.status_changed': 'job',
  'job.assigned': 'job',
  'job.visit_booked': 'job',
  'job.assignment_accepted': 'job',
  'job.assignment_declined': 'job',
  'job.merged': 'job',
  'job.recalled': 'job',
  'job.note_added': 'note',
  // A conversation message: staff, and the party whose thread it is (docs/conversations.md).
  'conversation.message_posted': 'thread',
};

/** A stream event with what its authorisation needs. */
export interface LiveCandidate {
  event: LiveEvent;
  agencyId: number | null;
  audience: Audience;
  /** The note's visibility (job.note_added only). */
  noteVisibility?: string;
  /** The thread's audience: tenant, contractor, landlord or internal (conversation.message_posted only). */
  threadAudience?: string;
}

/**
 * The stream event of an outbox row, or null when the row is not about a job (or its payload lacks
 * the job's uuid and reference).
 */
export function liveCandidate(row: LiveOutboxRow): LiveCandidate | null {
  const payload = (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as Record<string, unknown> | null;
  if (!payload || typeof payload.job_uuid !== 'string' || typeof payload.reference !== 'string') return null;
  const event: LiveEvent = { id: String(row.id), type: row.name, job_uuid: payload.job_uuid, reference: payload.reference, at: new Date(row.occurred_at).toISOString() };
  const statusId = typeof payload.to_status_id === 'number' ? payload.to_status_id : row.name === 'job.created' && typeof payload.status_id === 'number' ? payload.status_id : undefined;
  if (statusId !== undefined) {
    event.status_id = statusId;
    event.status = STATUS_NAMES[statusId] ?? String(statusId);
  }
  if (Array.isArray(payload.fields)) event.fields = payload.fields.filter((f): f is string => typeof f === 'string');
  const candidate: LiveCandidate = { event, agencyId: row.agency_id, audience: AUDIENCES[row.name] ?? 'staff' };
  if (typeof payload.visibility === 'string') candidate.noteVisibility = payload.visibility;
  if (row.name === 'conversation.message_posted' && typeof payload.audience === 'string') candidate.threadAudience = payload.audience;
  return candidate;
}

/** True for the scopes of staff (SysOps, agency accounts, agents). */
function isStaff(scope: JobScope): boolean {
  return scope.kind === 'all' || scope.kind === 'agency' || scope.kind === 'branch';
}

/**
 * True when a recipient of this scope and agency may hear the event, its job's visibility aside
 * (the caller checks that with `visibleJobUuids`). Agency scoping: an account of an agency never
 * hears another agency's event.
 * @param agencyId the recipient's agency (null for SysOps and accounts of no agency)
 */
export function audienceAllows(candidate: LiveCandidate, scope: JobScope, agencyId: number | null): boolean {
  if (scope.kind === 'none') return false;
  if (agencyId !== null && candidate.agencyId !== null && candidate.agencyId !== agencyId) return false;
  switch (candidate.audience) {
    case 'job':
      return true;
    case 'staff':
      return isStaff(scope);
    case 'note': {
      const readable = readableVisibilities(scope);
      return readable === null || (candidate.noteVisibility !== undefined && (readable as readonly string[]).includes(candidate.noteVisibility));
    }
    case 'thread':
      // Staff hear every thread; a tenant, contractor or landlord only the thread of their own kind.
      return isStaff(scope) || (candidate.threadAudience !== undefined && candidate.threadAudience === scope.kind);
  }
}
