/**
 * The catalogue of domain events (docs/events.md, docs/architecture.md "Side effects follow events").
 * Each event has a name in the activity log's `<resource>.<verb>` form, a version and a TypeBox
 * payload schema. Payloads carry identifiers and the few facts a handler needs to route the event;
 * a handler loads the rest, so a payload never carries what its receiver could not read through
 * the API. Adding an event: add it here (and it appears in docs/events.md and the OpenAPI
 * document); changing a payload incompatibly: bump its version.
 */
import { Type, type Static, type TSchema } from 'typebox';
import { Nullable, Uuid } from '../http/schema-primitives.ts';

const Id = (description: string) => Type.Integer({ minimum: 1, maximum: 2_147_483_647, description });

/** Fields every job event carries. */
const JobRef = {
  job_id: Id('internal id of the job'),
  job_uuid: Uuid('the job'),
  reference: Type.String({ description: 'JOB-000123' }),
  branch_id: Id('branch of the job'),
};

/** Fields every quote event carries (money). */
const QuoteRef = {
  quote_id: Id('the quote'),
  quote_uuid: Uuid('the quote'),
  contractor_id: Id('contractor of the quote'),
  gross_pence: Type.Integer({ minimum: 0, description: 'total incl. VAT, pence' }),
};

/** Fields every invoice event carries (money). */
const InvoiceRef = {
  invoice_id: Id('the invoice'),
  invoice_uuid: Uuid('the invoice'),
  invoice_number: Nullable(Type.String({ description: 'INV-000001 once issued' })),
  contractor_id: Id('contractor of the invoice'),
  gross_pence: Type.Integer({ minimum: 0, description: 'total incl. VAT, pence' }),
};

/** Fields every landlord approval event carries. */
const ApprovalRef = {
  ...JobRef,
  approval_id: Id('the approval request'),
  approval_uuid: Uuid('the approval request'),
  landlord_id: Id('the landlord asked'),
  amount_pence: Type.Integer({ minimum: 0, description: 'the cost to approve, pence incl. VAT' }),
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
  'job.visit_booked': define(1, 'The assigned contractor booked (or moved) its visit: the job is Scheduled for the date (docs/works-orders.md).', Type.Object({
    ...JobRef,
    contractor_id: Id('the contractor'),
    time_range_id: Nullable(Id('time slot of the visit')),
    scheduled_for: Type.String({ description: 'visit date, ISO 8601 (midnight UTC of the day)' }),
    visit_uuid: Type.Optional(Uuid('the timed visit (docs/tenant-reporting.md "Booking the visit"); absent for a booking by date and slot')),
    starts_at: Type.Optional(Type.String({ format: 'date-time', description: 'start of a timed visit' })),
    ends_at: Type.Optional(Type.String({ format: 'date-time', description: 'end of a timed visit' })),
    booked_by: Type.Optional(Type.String({ description: 'contractor, or tenant (picked a free slot)' })),
  })),
  'job.visit_reminder': define(1, 'A timed visit is tomorrow (London date): the tenant and the contractor are reminded, once per visit (docs/tenant-reporting.md).', Type.Object({
    ...JobRef,
    contractor_id: Id('the contractor'),
    visit_uuid: Uuid('the visit'),
    starts_at: Type.String({ format: 'date-time' }),
    ends_at: Type.String({ format: 'date-time' }),
  })),
  'job.visit_missed': define(1, 'A booked visit was missed: by the tenant (no access) or the contractor (no-show); the job is Assigned again (docs/tenant-reporting.md).', Type.Object({
    ...JobRef,
    contractor_id: Id('the contractor'),
    visit_uuid: Uuid('the visit'),
    missed_by: Type.String({ description: 'tenant or contractor' }),
    starts_at: Type.String({ format: 'date-time' }),
    ends_at: Type.String({ format: 'date-time' }),
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
  'conversation.message_posted': define(1, 'A message was posted in a conversation thread of a job (web, e-mail reply or SMS; docs/conversations.md).', Type.Object({
    ...JobRef,
    thread_id: Id('the thread'),
    thread_uuid: Uuid('the thread'),
    audience: Type.String({ description: 'who the thread is with: tenant, contractor, landlord or internal (staff only)' }),
    message_id: Id('the message'),
    message_uuid: Uuid('the message'),
    channel: Type.String({ description: 'web, email or sms' }),
    author_user_id: Nullable(Id('the author\'s account; null for a person without one')),
    author_kind: Type.String({ description: 'staff, tenant, contractor, landlord or system' }),
  })),
  'sms.received': define(1, 'An SMS reached the service\'s number and was matched to the thread of the last message sent to that number (docs/conversations.md "SMS").', Type.Object({
    sms_id: Id('the received SMS (sms_messages)'),
    thread_id: Id('the thread it answers'),
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
  // SLA breach detection (docs/sla.md): a running clock crossed the agency's at-risk share of its
  // allowed time, or its due_at.
  'sla.at_risk': define(1, 'An SLA clock of a job passed the at-risk share of its allowed time.', Type.Object({
    ...JobRef,
    clock_id: Id('the SLA clock'),
    rule_uuid: Uuid('the branch SLA rule'),
    due_at: Type.String({ format: 'date-time', description: 'when the allowed time runs out' }),
  })),
  'sla.breached': define(1, 'An SLA clock of a job ran out of time (due_at passed, or the job was stopped late).', Type.Object({
    ...JobRef,
    clock_id: Id('the SLA clock'),
    rule_uuid: Uuid('the branch SLA rule'),
    due_at: Type.String({ format: 'date-time', description: 'when the allowed time ran out' }),
  })),
  'compliance.certificate_expiring': define(1, 'The latest certificate of a compliance item expires within a reminder threshold (60, 30 or 7 days); once per item, expiry date and threshold.', Type.Object({
    item_id: Id('the compliance item'),
    item_uuid: Uuid('the compliance item'),
    address_id: Id('the property'),
    expires_on: Type.String({ format: 'date', description: 'London date the certificate expires' }),
    days_left: Type.Integer({ minimum: 0, description: 'days from today (London) to the expiry' }),
    threshold_days: Type.Integer({ description: 'the reminder threshold reached: 60, 30 or 7' }),
  })),
  // Hazards and statutory clocks (docs/compliance.md "Hazards and statutory clocks").
  'hazard.reported': define(1, 'A job was marked as carrying a hazard (or its category or severity changed).', Type.Object({
    ...JobRef,
    hazard_uuid: Uuid('the hazard'),
    category: Type.String({ description: 'HHSRS hazard code, e.g. damp_and_mould' }),
    severity: Type.String({ description: 'emergency or significant' }),
  })),
  'hazard.summary_sent': define(1, 'The written summary of a hazard investigation was sent to the tenant.', Type.Object({
    ...JobRef,
    hazard_uuid: Uuid('the hazard'),
  })),
  'hazard.at_risk': define(1, 'A statutory clock of a hazard passed the at-risk share of its allowed time.', Type.Object({
    ...JobRef,
    hazard_uuid: Uuid('the hazard'),
    clock_id: Id('the statutory clock'),
    kind: Type.String({ description: 'make_safe, investigate, summary, works_start or further_works_start (works_complete: clocks planned before the regulations were applied as written)' }),
    due_at: Type.String({ format: 'date-time', description: 'the statutory deadline' }),
  })),
  'hazard.breached': define(1, 'A statutory clock of a hazard ran out (deadline passed, or the milestone was recorded late).', Type.Object({
    ...JobRef,
    hazard_uuid: Uuid('the hazard'),
    clock_id: Id('the statutory clock'),
    kind: Type.String({ description: 'make_safe, investigate, summary, works_start or further_works_start (works_complete: clocks planned before the regulations were applied as written)' }),
    due_at: Type.String({ format: 'date-time', description: 'the statutory deadline' }),
  })),
  // Money: quotes, invoices, payments, credit notes (docs/money.md). Amounts in integer pence.
  'quote.submitted': define(1, 'A contractor (or staff on its behalf) submitted a quote for a job.', Type.Object({
    ...JobRef,
    ...QuoteRef,
  })),
  'quote.approved': define(1, 'A quote was approved; the job carries its gross as agreed cost.', Type.Object({
    ...JobRef,
    ...QuoteRef,
  })),
  'quote.rejected': define(1, 'A quote was rejected (by hand, or because another quote of the job was approved).', Type.Object({
    ...JobRef,
    ...QuoteRef,
    reason: Nullable(Type.String()),
  })),
  'invoice.issued': define(1, 'A contractor invoice was issued with its agency-sequential number.', Type.Object({
    ...JobRef,
    ...InvoiceRef,
    due_date: Type.String({ format: 'date', description: 'ISO date' }),
  })),
  'invoice.paid': define(1, 'Payments (and credits) settled an invoice in full.', Type.Object({
    ...JobRef,
    ...InvoiceRef,
  })),
  'invoice.overdue': define(1, 'An issued invoice passed its due date unpaid (marked once by the periodic task).', Type.Object({
    ...JobRef,
    ...InvoiceRef,
    due_date: Type.String({ format: 'date', description: 'ISO date' }),
    outstanding_pence: Type.Integer({ minimum: 0 }),
  })),
  'invoice.voided': define(1, 'An invoice was voided (a draft, or an issued one with nothing paid; its number stays used).', Type.Object({
    ...JobRef,
    ...InvoiceRef,
    reason: Nullable(Type.String()),
  })),
  'payment.recorded': define(1, 'A payment was recorded against an invoice.', Type.Object({
    ...JobRef,
    ...InvoiceRef,
    payment_id: Id('the payment'),
    amount_pence: Type.Integer({ minimum: 1 }),
    outstanding_pence: Type.Integer({ minimum: 0 }),
  })),
  'credit_note.issued': define(1, 'A credit note was issued against an invoice.', Type.Object({
    ...JobRef,
    ...InvoiceRef,
    credit_note_id: Id('the credit note (an invoices row of kind credit_note)'),
    credit_note_number: Type.String({ description: 'CN-000001' }),
    refund_due_pence: Type.Optional(Type.Integer({ minimum: 0, description: 'pence of the credit beyond what was outstanding (a paid invoice): owed back by the contractor' })),
  })),
  // Works orders by link and competing quotes (docs/works-orders.md).
  'works_order.sent': define(1, "A works order was sent to the job's contractor: it is e-mailed a signed link to work the job without an account.", Type.Object({
    ...JobRef,
    link_id: Id('the link row (the token is signed when the e-mail is written, never carried)'),
    contractor_id: Id('the contractor'),
  })),
  'quote_request.sent': define(1, 'Contractors were asked for competing quotes with a deadline; each is e-mailed a signed link to answer.', Type.Object({
    ...JobRef,
    quote_request_id: Id('the quote request'),
    quote_request_uuid: Uuid('the quote request'),
  })),
  'quote_request.awarded': define(1, 'A quote request was awarded to one quote; the winner and the other contractors asked are told.', Type.Object({
    ...JobRef,
    quote_request_id: Id('the quote request'),
    quote_request_uuid: Uuid('the quote request'),
    ...QuoteRef,
  })),
  // Landlord approvals by signed link (docs/landlords.md). Amounts in integer pence.
  'approval.requested': define(1, 'A cost above the spend limit of the property waits for its landlord; the landlord is e-mailed signed links.', Type.Object({
    ...ApprovalRef,
  })),
  'approval.reminded': define(1, 'A pending approval was reminded once (the landlord is e-mailed the same links again).', Type.Object({
    ...ApprovalRef,
  })),
  'approval.answered': define(1, 'The landlord answered an approval by link: approve, decline or question.', Type.Object({
    ...ApprovalRef,
    answer: Type.Union([Type.Literal('approve'), Type.Literal('decline'), Type.Literal('question')]),
  })),
  'approval.expired': define(1, 'An approval expired unanswered; the agents of the job\'s branch are told.', Type.Object({
    ...ApprovalRef,
  })),
  // Tenant self-service (docs/tenant-reporting.md).
  'report.emergency': define(1, 'A guided report reached an emergency: the tenant was shown the instruction, an emergency-priority job was raised and the branch\'s on-call contact is alerted.', Type.Object({
    ...JobRef,
    report_id: Id('the guided report'),
    flow_code: Type.String({ description: 'the triage flow walked, e.g. gas_smell' }),
  })),
  'job.merged': define(1, 'A duplicate job was merged into another (the duplicate is cancelled; both keep their history).', Type.Object({
    ...JobRef,
    merged_job_id: Id('the duplicate, now cancelled'),
    merged_job_uuid: Uuid('the duplicate'),
  })),
  'job.recalled': define(1, 'A completed repair was reopened within the recall window: a new job (the recall) linked to the original.', Type.Object({
    ...JobRef,
    original_job_id: Id('the job recalled'),
    original_job_uuid: Uuid('the job recalled'),
  })),
  'survey.answered': define(1, 'A tenant answered the satisfaction survey of a completed job (rating 1 to 5).', Type.Object({
    ...JobRef,
    survey_id: Id('the survey'),
    rating: Type.Integer({ minimum: 1, maximum: 5 }),
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
