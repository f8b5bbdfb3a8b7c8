/** Schemas of the jobs endpoints (spec 4.16; docs/api.md "Decisions on the spec's gaps"; docs/jobs.md). */
import { Type, type Static } from 'typebox';
import { DateTime, IsoDate, Nullable, Uuid } from '../../../http/schema-primitives.ts';
import { Pagination, Sorting } from '../../../http/pagination.ts';

/** A nullable timestamp (`o`: its description). */
const NullableDateTime = (o?: string) => Nullable(DateTime(o));

const Pence = (description: string) => Type.Integer({ minimum: 0, maximum: 2_000_000_000, description: `${description}, in pence` });

export const Job = Type.Object(
  {
    uuid: Uuid(),
    reference: Type.String({ description: 'agency-unique reference such as JOB-000123' }),
    title: Type.String(),
    description: Type.String(),
    priority: Type.Integer({ minimum: 1, maximum: 5, description: '1 emergency to 5 planned' }),
    status_id: Type.Integer(),
    status: Type.String(),
    is_open: Type.Boolean({ description: 'false for Closed and Cancelled' }),
    on_hold_from_status_id: Type.Optional(Nullable(Type.Integer({ description: 'status the job resumes to (On hold only)' }))),
    job_type_id: Type.Integer(),
    job_type: Type.String(),
    trade_id: Nullable(Type.Integer()),
    trade: Nullable(Type.String()),
    branch_uuid: Uuid(),
    branch_name: Type.String(),
    address_uuid: Nullable(Uuid()),
    address_line1: Nullable(Type.String()),
    address_line2: Nullable(Type.String()),
    town: Nullable(Type.String()),
    postcode: Nullable(Type.String()),
    tenant_uuid: Nullable(Uuid()),
    tenant_name: Nullable(Type.String()),
    tenant_phone: Type.Optional(
      Nullable(Type.String({ description: "the tenant's mobile, else phone: only GET /api/jobs/{uuid}, only for staff and the job's assigned contractor" })),
    ),
    contractor_uuid: Nullable(Uuid()),
    contractor_name: Nullable(Type.String()),
    contractor_accepted_at: NullableDateTime('when the contractor accepted the assignment'),
    agent_uuid: Type.Optional(Nullable(Uuid('owning agent (not for tenants)'))),
    agent_name: Type.Optional(Nullable(Type.String())),
    time_range_id: Nullable(Type.Integer()),
    time_range: Nullable(Type.String({ description: 'range_label of the slot' })),
    estimated_cost_pence: Type.Optional(Nullable(Type.Integer({ description: 'pence; absent for tenants' }))),
    agreed_cost_pence: Type.Optional(Nullable(Type.Integer({ description: 'pence; absent for tenants' }))),
    currency: Type.String(),
    created_at: DateTime(),
    updated_at: DateTime(),
    approved_at: NullableDateTime(),
    assigned_at: NullableDateTime(),
    scheduled_for: NullableDateTime(),
    attended_at: NullableDateTime(),
    completed_at: NullableDateTime(),
    invoiced_at: NullableDateTime(),
    closed_at: NullableDateTime(),
    cancelled_at: NullableDateTime(),
    sla_state: Nullable(Type.String({ description: 'state of the most urgent SLA clock (docs/sla.md); null without one' })),
    sla_due_at: NullableDateTime('due_at of the most urgent SLA clock'),
  },
  { description: 'A job (work order). Costs and the owning agent are absent for tenants.' },
);
export type JobDto = Static<typeof Job>;

export const JobParams = Type.Object({ uuid: Uuid('the job') }, { additionalProperties: false });

export const SORTS = ['created_at', 'updated_at', 'priority', 'scheduled_for'] as const;

export const ListJobsQuery = Type.Object(
  {
    status_id: Type.Optional(Type.Integer({ minimum: 1 })),
    job_type_id: Type.Optional(Type.Integer({ minimum: 1 })),
    priority: Type.Optional(Type.Integer({ minimum: 1, maximum: 5 })),
    branch_uuid: Type.Optional(Uuid()),
    contractor_uuid: Type.Optional(Uuid()),
    tenant_uuid: Type.Optional(Uuid()),
    address_uuid: Type.Optional(Uuid('jobs at this property')),
    agent_uuid: Type.Optional(Uuid('owning agent (user uuid)')),
    from_date: Type.Optional(IsoDate('jobs created on or after this UTC date')),
    to_date: Type.Optional(IsoDate('jobs created on or before this UTC date (inclusive)')),
    sla_state: Type.Optional(Type.Union(['breached', 'at_risk', 'running', 'paused', 'met'].map((s) => Type.Literal(s)), { description: 'state of the most urgent SLA clock (docs/sla.md)' })),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'case-insensitive text in reference, title or description' })),
    ...Sorting(SORTS, 'created_at', 'desc'),
    ...Pagination,
  },
  { additionalProperties: false },
);
export type ListJobsInput = Static<typeof ListJobsQuery>;

const editable = {
  description: Type.Optional(Type.String({ maxLength: 5000 })),
  job_type_id: Type.Optional(Type.Integer({ minimum: 1, description: 'see GET /api/jobs/types; default 1 (reactive repair)' })),
  trade_id: Type.Optional(Nullable(Type.Integer({ minimum: 1, description: 'trade needed (trades table)' }))),
  address_uuid: Type.Optional(Nullable(Uuid())),
  tenant_uuid: Type.Optional(Nullable(Uuid())),
  estimated_cost_pence: Type.Optional(Nullable(Pence('estimated cost'))),
  agreed_cost_pence: Type.Optional(Nullable(Pence('agreed cost'))),
};

export const CreateJobBody = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 200 }),
    priority: Type.Integer({ minimum: 1, maximum: 5, description: '1 emergency, 2 urgent, 3 routine, 4 low, 5 planned' }),
    branch_uuid: Type.Optional(Uuid("default: the caller's branch; for agency-wide staff the property's branch, else the agency's only branch")),
    ...editable,
  },
  { additionalProperties: false },
);
export type CreateJobInput = Static<typeof CreateJobBody>;

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$', description: 'repeats of the same key and body return the first response (24 h)' })),
});

export const UpdateJobBody = Type.Object(
  {
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    priority: Type.Optional(Type.Integer({ minimum: 1, maximum: 5 })),
    ...editable,
  },
  { additionalProperties: false },
);
export type UpdateJobInput = Static<typeof UpdateJobBody>;

export const DeleteJobQuery = Type.Object(
  { soft_delete: Type.Optional(Type.Boolean({ default: false, description: 'true: hide a Closed or Cancelled job for good (administrators)' })) },
  { additionalProperties: false },
);
export const DeleteJobBody = Type.Object(
  { note: Type.Optional(Type.String({ maxLength: 2000 })) },
  { additionalProperties: false },
);

export const TransitionBody = Type.Object(
  {
    to_status_id: Type.Integer({ minimum: 1, description: 'see GET /api/jobs/statuses' }),
    note: Type.Optional(Type.String({ maxLength: 2000, description: 'reason, kept in the history' })),
  },
  { additionalProperties: false },
);
export type TransitionInput = Static<typeof TransitionBody>;

export const AssignmentBody = Type.Object(
  {
    contractor_uuid: Uuid(),
    time_range_id: Type.Optional(Type.Integer({ minimum: 1, description: 'slot from GET /api/jobs/time-ranges' })),
    scheduled_for: Type.Optional(Type.String({ format: 'date', description: 'visit date (YYYY-MM-DD); given: the job becomes Scheduled' })),
  },
  { additionalProperties: false },
);
export type AssignmentInput = Static<typeof AssignmentBody>;

export const BookingBody = Type.Object(
  {
    scheduled_for: Type.Optional(Type.String({ format: 'date', description: 'visit date (YYYY-MM-DD), today or later (UTC); required unless starts_at and ends_at are given' })),
    time_range_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'slot from GET /api/jobs/time-ranges (with scheduled_for)' })),
    starts_at: Type.Optional(Type.String({ format: 'date-time', description: 'a timed visit: its start (ISO 8601 instant), inside one of the tenant\'s windows when it gave any (GET /api/jobs/{uuid}/visit); with ends_at, instead of scheduled_for' })),
    ends_at: Type.Optional(Type.String({ format: 'date-time', description: 'a timed visit: its end, 60 minutes to 12 hours after starts_at' })),
  },
  { additionalProperties: false },
);
export type BookingInput = Static<typeof BookingBody>;

export const DeclineBody = Type.Object(
  { reason: Type.Optional(Type.String({ maxLength: 2000 })) },
  { additionalProperties: false },
);

export const HistoryEntry = Type.Object(
  {
    ID: Type.Integer(),
    from_status_id: Nullable(Type.Integer({ description: 'null for the creation' })),
    from_status: Nullable(Type.String()),
    to_status_id: Type.Integer(),
    to_status: Type.String(),
    by_user_uuid: Nullable(Uuid('null for tenants and for system moves')),
    by_user_name: Nullable(Type.String()),
    note: Nullable(Type.String({ description: 'null for tenants' })),
    created_at: DateTime(),
  },
  { description: 'One status move of a job' },
);

export const HistoryQuery = Type.Object({ ...Pagination }, { additionalProperties: false });

export const StatusInfo = Type.Object({
  ID: Type.Integer(),
  code: Type.String(),
  name: Type.String(),
  is_open: Type.Boolean(),
  allowed_next: Type.Array(
    Type.Object({
      status_id: Type.Integer(),
      name: Type.String(),
      parties: Type.Array(Type.String(), { description: 'staff, contractor, tenant' }),
      via: Type.String({ description: 'transition, assignment, decline or resume (back to the status it came from)' }),
      sets: Nullable(Type.String({ description: 'date field set by the move' })),
    }),
  ),
});

export const JobType = Type.Object({ ID: Type.Integer(), code: Type.String(), name: Type.String() });
