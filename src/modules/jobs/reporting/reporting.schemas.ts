/** Schemas of tenant self-service (docs/tenant-reporting.md): flows, walks, reports, on-call, settings, merges, recalls, surveys. */
import { Type, type Static } from 'typebox';
import { Pagination } from '../../../http/pagination.ts';
import { DateTime, IsoDate, Nullable, Uuid } from '../../../http/schema-primitives.ts';
import { SpanInput, VisitPlan } from '../jobs/index.ts';

const Code = (description: string) => Type.String({ pattern: '^[a-z0-9_]{1,40}$', description });
const Text = (max: number, description?: string) => Type.String({ minLength: 1, maxLength: max, ...(description ? { description } : {}) });

export const JobPresetSchema = Type.Object(
  {
    title: Text(200, 'title of the job raised'),
    trade: Code('trade code (platform or the agency\'s own), e.g. heating'),
    job_type: Code('reactive_repair, emergency, planned_maintenance, inspection, compliance_check or void_works'),
    priority: Type.Integer({ minimum: 1, maximum: 5, description: '1 emergency to 5 planned (emergencies: 1)' }),
    photos: Type.Array(Text(200), { maxItems: 5, description: 'the photos the tenant is asked for' }),
  },
  { additionalProperties: false },
);

/** A node of a flow: the fields used depend on `kind` (checked by the server, docs/tenant-reporting.md "Flows"). */
export const FlowNodeSchema = Type.Object(
  {
    id: Code('node id, unique in the flow'),
    kind: Type.Union([Type.Literal('question'), Type.Literal('advice'), Type.Literal('emergency'), Type.Literal('job')]),
    text: Type.Optional(Text(2000, 'question: the question; advice: the advice; job: what happens next')),
    help: Type.Optional(Text(2000, 'question: self-help shown with it')),
    options: Type.Optional(Type.Array(
      Type.Object({ id: Code('option id, unique in the question'), label: Text(200), next: Code('node this answer leads to') }, { additionalProperties: false }),
      { maxItems: 10, description: 'question: 2 to 10 answers' },
    )),
    title: Type.Optional(Text(200, 'advice, emergency, job: heading shown to the tenant')),
    instruction: Type.Optional(Text(2000, 'emergency: what to do at once')),
    phone: Type.Optional(Text(40, 'emergency: the number to call')),
    job: Type.Optional(JobPresetSchema),
  },
  { additionalProperties: false },
);

export const FlowTreeSchema = Type.Object(
  { start: Code('first node'), nodes: Type.Array(FlowNodeSchema, { minItems: 1, maxItems: 100 }) },
  { additionalProperties: false },
);

export const Flow = Type.Object({
  uuid: Uuid(),
  code: Type.String(),
  name: Type.String(),
  version: Type.Integer({ minimum: 1, description: 'the version shown; a report records the version it walked' }),
  position: Type.Integer(),
  emergency: Type.Boolean({ description: 'true when an answer leads to an emergency instruction' }),
  tree: FlowTreeSchema,
  updated_at: DateTime(),
});
export type FlowDto = Static<typeof Flow>;

export const FlowVersion = Type.Object({
  version: Type.Integer(),
  name: Type.String(),
  created_at: DateTime(),
  created_by: Nullable(Type.Object({ uuid: Uuid(), name: Type.String() })),
});

export const FlowParams = Type.Object({ code: Code('flow code') }, { additionalProperties: false });
export const FlowQuery = Type.Object(
  { version: Type.Optional(Type.Integer({ minimum: 1, description: 'an earlier version (default: the current one)' })) },
  { additionalProperties: false },
);

export const SaveFlowBody = Type.Object(
  {
    name: Text(100, 'name shown to tenants'),
    position: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000, description: 'order in the list (smaller first)' })),
    tree: FlowTreeSchema,
  },
  { additionalProperties: false },
);
export type SaveFlowInput = Static<typeof SaveFlowBody>;

const Answers = Type.Array(
  Type.Object({ node: Code('the question answered'), option: Code('the option chosen') }, { additionalProperties: false }),
  { maxItems: 50, description: 'the answers in the order given, from the start node' },
);

export const PreviewBody = Type.Object({ tree: FlowTreeSchema, answers: Answers }, { additionalProperties: false });

const Question = Type.Object({
  id: Type.String(), text: Type.String(), help: Nullable(Type.String()),
  options: Type.Array(Type.Object({ id: Type.String(), label: Type.String() })),
});
const Outcome = Type.Object({
  id: Type.String(),
  kind: Type.Union([Type.Literal('advice'), Type.Literal('emergency'), Type.Literal('job')]),
  title: Type.String(),
  text: Nullable(Type.String({ description: 'advice text, or what happens next' })),
  instruction: Nullable(Type.String({ description: 'emergency: what to do at once' })),
  phone: Nullable(Type.String()),
  job: Nullable(Type.Object({
    title: Type.String(), trade: Type.String(), job_type: Type.String(), priority: Type.Integer(), photos: Type.Array(Type.String()),
  })),
});
const RecordedAnswer = Type.Object({ node: Type.String(), question: Type.String(), option: Type.String(), answer: Type.String() });
const JobBrief = Type.Object({ uuid: Uuid(), reference: Type.String(), title: Type.String(), status: Type.String(), at: DateTime({ description: 'created (open jobs) or completed (recall candidates)' }) });

export const Step = Type.Object({
  flow: Type.Object({ code: Type.String(), name: Type.String(), version: Type.Integer() }),
  answers: Type.Array(RecordedAnswer),
  next: Nullable(Question),
  outcome: Nullable(Outcome),
  duplicates: Type.Array(JobBrief, { description: 'open jobs at the address with the outcome\'s trade: the report may be added to one instead' }),
  recall_candidates: Type.Array(JobBrief, { description: 'jobs of the trade at the address completed within the recall window: the report may reopen one as a recall' }),
});
export type StepDto = Static<typeof Step>;

export const Preview = Type.Object({
  problems: Type.Array(Type.Object({ path: Type.String(), problem: Type.String() })),
  step: Nullable(Step),
});

export const WalkBody = Type.Object(
  {
    flow_code: Code('the flow'),
    version: Type.Optional(Type.Integer({ minimum: 1, description: 'the version being walked (default: current)' })),
    answers: Answers,
    address_uuid: Type.Optional(Uuid('the property (default: the tenant\'s only one); used to find duplicates')),
  },
  { additionalProperties: false },
);
export type WalkInput = Static<typeof WalkBody>;

export const SubmitBody = Type.Object(
  {
    flow_code: Code('the flow'),
    version: Type.Optional(Type.Integer({ minimum: 1, description: 'the version walked (default: current); recorded on the report' })),
    answers: Answers,
    address_uuid: Type.Optional(Uuid('the property (default: the tenant\'s only one)')),
    description: Type.Optional(Type.String({ maxLength: 4000, description: 'the tenant\'s own words' })),
    add_to_job_uuid: Type.Optional(Uuid('one of the step\'s duplicates: the report is added to it instead of raising a job')),
    recall_of_job_uuid: Type.Optional(Uuid('one of the step\'s recall candidates: the job raised is a recall of it')),
    tenant_uuid: Type.Optional(Uuid('staff reporting for a tenant')),
    branch_uuid: Type.Optional(Uuid('staff: the branch (default as for POST /api/jobs/manage)')),
  },
  { additionalProperties: false },
);
export type SubmitInput = Static<typeof SubmitBody>;

export const Report = Type.Object({
  uuid: Uuid(),
  flow: Type.Object({ code: Type.String(), name: Type.String(), version: Type.Integer() }),
  outcome: Type.Union([Type.Literal('advice'), Type.Literal('emergency'), Type.Literal('job'), Type.Literal('added_to_job')]),
  deflected: Type.Boolean({ description: 'true when self-help advice settled it without a job' }),
  outcome_title: Type.String({ description: 'the outcome node\'s title in the version walked' }),
  answers: Type.Array(RecordedAnswer, { description: 'as shown when answered (later versions do not change them)' }),
  description: Type.String(),
  job_uuid: Nullable(Uuid()),
  job_reference: Nullable(Type.String()),
  tenant_uuid: Nullable(Uuid()),
  tenant_name: Nullable(Type.String()),
  address_uuid: Nullable(Uuid()),
  address_line1: Nullable(Type.String()),
  postcode: Nullable(Type.String()),
  created_at: DateTime(),
});
export type ReportDto = Static<typeof Report>;

export const SubmitResult = Type.Object({
  report: Report,
  instruction: Nullable(Type.Object({ title: Type.String(), text: Type.String(), phone: Nullable(Type.String()) }, { description: 'emergency: shown at once' })),
  advice: Nullable(Type.Object({ title: Type.String(), text: Type.String() })),
  photos_requested: Type.Array(Type.String(), { description: 'the photos to upload to the job (POST /api/jobs/{uuid}/photos)' }),
});

export const ListReportsQuery = Type.Object(
  {
    outcome: Type.Optional(Type.Union([Type.Literal('advice'), Type.Literal('emergency'), Type.Literal('job'), Type.Literal('added_to_job')])),
    flow_code: Type.Optional(Code('only this flow')),
    from_date: Type.Optional(IsoDate('reports on or after this London date')),
    to_date: Type.Optional(IsoDate('reports on or before this London date')),
    ...Pagination,
  },
  { additionalProperties: false },
);
export type ListReportsInput = Static<typeof ListReportsQuery>;

export const OnCall = Type.Object({
  branch_uuid: Uuid(),
  branch_name: Type.String(),
  name: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  email: Nullable(Type.String()),
  updated_at: Nullable(DateTime()),
});
export const BranchParams = Type.Object({ branch_uuid: Uuid('the branch') }, { additionalProperties: false });
export const OnCallBody = Type.Object(
  {
    name: Text(100),
    phone: Type.String({ minLength: 5, maxLength: 40, pattern: '^[0-9+() -]+$', description: 'UK number, digits and spaces' }),
    email: Type.String({ format: 'email', maxLength: 254 }),
  },
  { additionalProperties: false },
);

export const Settings = Type.Object({
  recall_days: Type.Integer({ minimum: 1, maximum: 365, description: 'a repair reopened within this many days of completion is a recall (default 28)' }),
  survey_link_days: Type.Integer({ minimum: 1, maximum: 90, description: 'days a survey link works (default 14)' }),
});
export const SettingsBody = Type.Object(
  { recall_days: Type.Optional(Settings.properties.recall_days), survey_link_days: Type.Optional(Settings.properties.survey_link_days) },
  { additionalProperties: false },
);

export const MergeBody = Type.Object(
  { into_job_uuid: Uuid('the job kept'), note: Type.Optional(Type.String({ maxLength: 2000 })) },
  { additionalProperties: false },
);
export const RecallBody = Type.Object(
  { reason: Text(2000, 'what is wrong again') },
  { additionalProperties: false },
);

const Linked = Type.Object({ uuid: Uuid(), reference: Type.String(), title: Type.String(), status: Type.String(), note: Nullable(Type.String()), at: DateTime() });
export const JobLinks = Type.Object({
  recall_of: Nullable(Linked),
  recalls: Type.Array(Linked),
  merged_into: Nullable(Linked),
  merged: Type.Array(Linked),
  reports: Type.Array(Type.Object({ uuid: Uuid(), outcome: Type.String(), flow_name: Type.String(), flow_version: Type.Integer(), created_at: DateTime() })),
  survey: Nullable(Type.Object({
    rating: Nullable(Type.Integer()), comment: Nullable(Type.String()), answered_at: Nullable(DateTime()), expires_at: DateTime(), sent_at: DateTime(),
  })),
});
export type JobLinksDto = Static<typeof JobLinks>;

export const SurveyParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });
export const SurveyView = Type.Object({
  agency_name: Type.String(),
  job_reference: Type.String(),
  job_title: Type.String(),
  property: Nullable(Type.String()),
  contractor_name: Nullable(Type.String()),
  completed_on: Nullable(Type.String({ description: 'London date, e.g. Thu 26 Nov 2026' })),
  expires: Type.String({ description: 'London date and time the link stops working' }),
});
export const VisitLinkView = Type.Object({
  agency_name: Type.String(),
  tenant_name: Type.String(),
  property: Nullable(Type.String()),
  expires: Type.String({ description: 'London date and time the link stops working' }),
  plan: VisitPlan,
});
export const VisitLinkBody = Type.Union([
  Type.Object({
    action: Type.Literal('windows'),
    windows: Type.Array(SpanInput, { maxItems: 20, description: 'the availability windows (at most 6): in the future, ending within 60 days, not overlapping' }),
  }, { additionalProperties: false }),
  Type.Object({ action: Type.Literal('choose'), ...SpanInput.properties }, { additionalProperties: false, description: "one of the contractor's free slots (plan.free_slots)" }),
]);
export const SurveyAnswerBody = Type.Object(
  {
    rating: Type.Integer({ minimum: 1, maximum: 5, description: '1 very poor to 5 very good' }),
    comment: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);
