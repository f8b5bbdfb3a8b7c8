/**
 * The catalogue of domain events (docs/events.md, ARCHITECTURE.md "side effects follow events").
 * Each event has a name in the activity log's `<resource>.<verb>` form, a version and a TypeBox
 * payload schema. Payloads carry identifiers and the few facts a handler needs to route the event;
 * a handler loads the rest, so a payload never carries what its receiver could not read through
 * the API. Adding an event: add it here (and it appears in docs/events.md and the OpenAPI
 * document); changing a payload incompatibly: bump its version.
 */
import { Type, type Static, type TSchema } from 'typebox';
import { Nullable } from '../http/schema-primitives.ts';

const Id = (description: string) => Type.Integer({ minimum: 1, maximum: 2_147_483_647, description });
const Uuid = (description: string) => Type.String({ format: 'uuid', description });

/** Fields every job event carries. */
const JobRef = {
  job_id: Id('internal id of the job'),
  job_uuid: Uuid('the job'),
  reference: Type.String({ description: 'JOB-000123' }),
  branch_id: Id('branch of the job'),
};

/** One catalogue entry. */
export interface EventDefinition<P extends TSchema = TSchema> {
  version: number;
  description: string;
  payload: P;
}

function define<P extends TSchema>(version: number, description: string, payload: P): EventDefinition<P> {
  return { version, description, payload };
}

/** Every domain event the service emits. */
export const EVENT_CATALOGUE = {
  'job.created': define(1, 'A job was reported (status Reported).', Type.Object({
    ...JobRef,
    status_id: Id('status of the new job'),
    priority: Type.Integer({ description: '1 (lowest) to 5' }),
    tenant_id: Nullable(Id('tenant of the job')),
  })),
  'job.updated': define(1, 'Fields of a job were edited (PUT /api/jobs/{uuid}).', Type.Object({
    ...JobRef,
    fields: Type.Array(Type.String(), { description: 'names of the changed fields' }),
  })),
  'job.status_changed': define(1, 'A job moved from one work order status to another.', Type.Object({
    ...JobRef,
    from_status_id: Nullable(Id('status before')),
    to_status_id: Id('status after'),
  })),
  'job.assigned': define(1, 'A contractor was assigned to a job (awaiting acceptance).', Type.Object({
    ...JobRef,
    contractor_id: Id('assigned contractor'),
    time_range_id: Nullable(Id('booked time slot')),
    scheduled_for: Nullable(Type.String({ format: 'date-time', description: 'visit date' })),
  })),
  'job.assignment_accepted': define(1, 'The assigned contractor accepted the job.', Type.Object({
    ...JobRef,
    contractor_id: Id('contractor'),
  })),
  'job.assignment_declined': define(1, 'The assigned contractor declined the job.', Type.Object({
    ...JobRef,
    contractor_id: Id('contractor'),
    reason: Nullable(Type.String()),
  })),
  'job.note_added': define(1, 'A case note was added to a job.', Type.Object({
    ...JobRef,
    note_id: Id('the note'),
    visibility: Type.String({ description: 'who may read the note' }),
  })),
  'job.file_added': define(1, 'A document or photo was uploaded to a job.', Type.Object({
    ...JobRef,
    file_id: Id('the file'),
    kind: Type.String({ description: 'document or photo' }),
  })),
  'contractor.certificate_expiring': define(1, 'A contractor certificate expires within the warning window.', Type.Object({
    contractor_id: Id('contractor'),
    certification_id: Id('certificate'),
    expires_on: Type.String({ format: 'date', description: 'ISO date' }),
  })),
  'user.created': define(1, 'A user account was created or invited.', Type.Object({
    user_id: Id('the user'),
    role_code: Type.String(),
  })),
  'tenant.erased': define(1, 'A tenant was erased (GDPR erasure); handlers drop what they hold of them.', Type.Object({
    tenant_id: Id('the erased tenant'),
  })),
} as const satisfies Record<string, EventDefinition>;

/** Name of a catalogued event. */
export type EventName = keyof typeof EVENT_CATALOGUE;
/** Payload type of event N. */
export type EventPayload<N extends EventName> = Static<(typeof EVENT_CATALOGUE)[N]['payload']>;

/** An event as handlers receive it. */
export interface DomainEvent<N extends EventName = EventName> {
  /** Event id (uuid): the idempotency key of every handler. */
  id: string;
  name: N;
  version: number;
  /** Agency the event belongs to; null for platform events. */
  agencyId: number | null;
  payload: EventPayload<N>;
  occurredAt: Date;
}
