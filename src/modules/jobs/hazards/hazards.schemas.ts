/** Schemas of the hazard endpoints (docs/compliance.md "Hazards and statutory clocks"). */
import { Type, type Static } from 'typebox';
import { Pagination } from '../../../http/pagination.ts';
import { DateTime, Nullable, Uuid } from '../../../http/schema-primitives.ts';
import { HAZARD_CLOCK_KINDS, HAZARD_CODES } from '../../../lib/hhsrs.ts';

const Enum = <T extends string>(values: readonly T[], description: string) => Type.Unsafe<T>({ type: 'string', enum: [...values], description });

export const JobParams = Type.Object({ uuid: Uuid({ description: 'the job' }) }, { additionalProperties: false });

export const HazardCategory = Type.Object(
  {
    code: Type.String({ description: 'e.g. damp_and_mould' }),
    name: Type.String({ description: 'name in the HHSRS regulations' }),
    group: Type.String({ description: 'physiological, psychological, infection or accidents' }),
  },
  { description: 'One of the 29 HHSRS hazards' },
);

export const HazardClock = Type.Object(
  {
    kind: Type.String({ description: HAZARD_CLOCK_KINDS.join(', ') }),
    label: Type.String({ description: 'what the clock requires, for people' }),
    state: Type.String({ description: 'running, at_risk, met or breached' }),
    started_at: DateTime(),
    due_at: DateTime({ description: 'the statutory deadline' }),
    due_at_text: Type.String({ description: 'the deadline in London time, e.g. "Tue 8 Dec 2026, 00:00"' }),
    at_risk_at: DateTime(),
    stopped_at: Nullable(DateTime({ description: 'when the milestone was recorded' })),
    breached_at: Nullable(DateTime()),
    time_left_seconds: Type.Integer({ description: 'seconds from now (or the stop) to the deadline; negative when over' }),
  },
  { description: 'A statutory clock of a hazard' },
);

export const Hazard = Type.Object(
  {
    uuid: Uuid({ description: 'the hazard' }),
    job_uuid: Uuid(),
    category: Type.String({ description: 'HHSRS code' }),
    category_name: Type.String(),
    severity: Type.String({ description: 'emergency or significant' }),
    description: Type.String(),
    reported_at: DateTime({ description: 'when the agency became aware of the hazard: the clocks start here' }),
    made_safe_at: Nullable(DateTime()),
    investigated_at: Nullable(DateTime()),
    summary_sent_at: Nullable(DateTime()),
    works_started_at: Nullable(DateTime()),
    works_completed_at: Nullable(DateTime()),
    works_working_days: Type.Integer({ description: 'the reasonable period for completing the works, working days' }),
    summary: Nullable(Type.Object({
      findings: Type.String(),
      actions: Type.String(),
      text: Type.String({ description: 'the e-mail as sent to the tenant: subject, blank line, text' }),
    })),
    clocks: Type.Array(HazardClock),
  },
  { description: 'The hazard a job carries, with its statutory clocks' },
);

export const SetHazardBody = Type.Object(
  {
    category: Enum(HAZARD_CODES, 'HHSRS hazard code (GET /api/hazards/categories)'),
    severity: Enum(['emergency', 'significant'] as const, 'emergency: investigate and make safe within 24 hours; significant: the working-day clocks'),
    description: Type.Optional(Type.String({ maxLength: 4000 })),
    reported_at: Type.Optional(DateTime({ description: 'when the agency became aware (default now); not in the future' })),
    works_working_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 260, description: 'reasonable period for the works, working days (default: the agency\'s, 60)' })),
  },
  { additionalProperties: false },
);
export type SetHazardInput = Static<typeof SetHazardBody>;

export const MilestoneBody = Type.Object(
  {
    milestone: Enum(['made_safe', 'investigated', 'works_started', 'works_completed'] as const, 'made_safe (emergency); investigated, works_started, works_completed (significant)'),
    at: Type.Optional(DateTime({ description: 'when it happened (default now); not in the future, not before the report or the milestone it follows' })),
  },
  { additionalProperties: false },
);
export type MilestoneInput = Static<typeof MilestoneBody>;

export const SummaryBody = Type.Object(
  {
    findings: Type.String({ minLength: 1, maxLength: 4000, description: 'what the investigation found' }),
    actions: Type.String({ minLength: 1, maxLength: 4000, description: 'what the agency will do' }),
  },
  { additionalProperties: false },
);
export type SummaryInput = Static<typeof SummaryBody>;

export const HazardBreachesQuery = Type.Object(
  {
    state: Type.Optional(Enum(['running', 'at_risk', 'met', 'breached'] as const, 'one state (default at_risk and breached)')),
    severity: Type.Optional(Enum(['emergency', 'significant'] as const, 'one severity')),
    ...Pagination,
  },
  { additionalProperties: false },
);
export type HazardBreachesInput = Static<typeof HazardBreachesQuery>;

export const HazardBreach = Type.Object(
  {
    ...HazardClock.properties,
    hazard_uuid: Uuid(),
    category: Type.String(),
    category_name: Type.String(),
    severity: Type.String(),
    job_uuid: Uuid(),
    reference: Type.String(),
    title: Type.String(),
    branch_uuid: Uuid(),
    branch_name: Type.String(),
    address: Nullable(Type.String()),
  },
  { description: 'A statutory clock of a visible job' },
);

export const EvidenceQuery = Type.Object(
  { format: Type.Optional(Enum(['json', 'pdf', 'zip'] as const, 'json (default): the timeline; pdf: the timeline as a PDF; zip: the PDF, timeline.json and the job\'s files')) },
  { additionalProperties: false },
);

export const EvidencePack = Type.Object(
  {
    job_uuid: Uuid(),
    reference: Type.String(),
    title: Type.String(),
    agency_name: Type.String(),
    address: Nullable(Type.String()),
    tenant_name: Nullable(Type.String()),
    hazard: Nullable(Type.String({ description: 'category name and severity' })),
    generated_at: DateTime(),
    timeline: Type.Array(Type.Object({
      at: DateTime(),
      at_text: Type.String({ description: 'London time, e.g. "Thu 26 Nov 2026, 18:07"' }),
      kind: Type.String({ description: 'report, status, visit, note, photo, document, message, hazard, sla or statutory_clock' }),
      text: Type.String(),
    }), { description: 'every event of the job, oldest first' }),
  },
  { description: 'The evidence pack of a job' },
);

export const HazardSettings = Type.Object(
  {
    works_working_days: Type.Integer({ description: 'the agency\'s reasonable period to complete the works of a significant hazard, working days (default 60); a hazard set later takes it unless it gives its own' }),
  },
  { description: 'The agency\'s hazard settings (docs/compliance.md "Hazards and statutory clocks")' },
);
export type HazardSettingsDto = Static<typeof HazardSettings>;

export const UpdateHazardSettingsBody = Type.Object(
  {
    works_working_days: Type.Integer({ minimum: 1, maximum: 260, description: '1 to 260 working days' }),
  },
  { additionalProperties: false },
);
export type UpdateHazardSettingsInput = Static<typeof UpdateHazardSettingsBody>;
