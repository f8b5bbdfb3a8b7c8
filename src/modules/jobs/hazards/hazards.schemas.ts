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
    stopped_at: Nullable(DateTime({ description: 'when the milestone happened (not when it was recorded): this decides met or breached' })),
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
    reported_at: DateTime({ description: 'the moment of awareness: the tenant\'s report unless a person set another with a reason; the clocks start here' }),
    awareness_reason: Nullable(Type.String({ description: 'why the moment of awareness is not the tenant\'s report' })),
    flagged_at: DateTime({ description: 'when staff marked the job as carrying the hazard' }),
    scope: Enum(['social', 'private_rented_policy', 'not_covered'] as const, 'social: SI 2025/1042 applies; private_rented_policy: the agency applies it as policy; not_covered: no clocks'),
    scope_text: Type.String({ description: 'the scope and its source, for people' }),
    made_safe_at: Nullable(DateTime({ description: 'when it happened' })),
    investigated_at: Nullable(DateTime({ description: 'when the investigation concluded' })),
    summary_sent_at: Nullable(DateTime({ description: 'when the written summary was issued (queued for delivery)' })),
    works_started_at: Nullable(DateTime({ description: 'when the relevant safety work was done' })),
    further_works_started_at: Nullable(DateTime({ description: 'when the further (preventative) works began' })),
    works_completed_at: Nullable(DateTime()),
    recorded: Type.Object({
      made_safe_at: Nullable(DateTime()),
      investigated_at: Nullable(DateTime()),
      works_started_at: Nullable(DateTime()),
      further_works_started_at: Nullable(DateTime()),
      works_completed_at: Nullable(DateTime()),
      summary_delivered_at: Nullable(DateTime()),
    }, { description: 'when each milestone was recorded (it may be later than it happened)' }),
    further_works_required: Type.Boolean({ description: 'the investigation identified supplementary preventative work (reg. 13)' }),
    further_works_reason: Nullable(Type.String({ description: 'why beginning further works within 5 working days is not reasonably practicable: the 12-week limit applies' })),
    works_working_days: Type.Integer({ description: 'deprecated: no longer a clock (further works are completed within a reasonable period, reg. 13(4))' }),
    summary: Nullable(Type.Object({
      findings: Type.String(),
      actions: Type.String(),
      text: Type.String({ description: 'the e-mail as sent to the tenant: subject, blank line, text' }),
      delivered_at: Nullable(DateTime({ description: 'when it reached the tenant: an e-mail or SMS sent, or a letter posted; the summary clock stops here' })),
      delivery_method: Nullable(Enum(['email', 'sms', 'post'] as const, 'how it reached the tenant')),
      fallback: Nullable(Enum(['sms', 'letter'] as const, 'the second channel taken after the e-mail failed or could not be sent')),
      fallback_at: Nullable(DateTime()),
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
    reported_at: Type.Optional(DateTime({ description: 'the moment of awareness (default: the time of the tenant\'s report, the job\'s creation); not in the future' })),
    awareness_reason: Type.Optional(Type.String({ minLength: 1, maxLength: 1000, description: 'why the moment of awareness is not the report: required when reported_at differs from it' })),
    further_works_required: Type.Optional(Type.Boolean({ description: 'the investigation identified supplementary preventative work (default true)' })),
    further_works_reason: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 1000, description: 'why beginning further works within 5 working days is not reasonably practicable (reg. 13(3)): the 12-week limit applies; null clears it' }))),
    works_working_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 260, description: 'deprecated: kept, no longer a clock' })),
  },
  { additionalProperties: false },
);
export type SetHazardInput = Static<typeof SetHazardBody>;

export const MilestoneBody = Type.Object(
  {
    milestone: Enum(
      ['made_safe', 'investigated', 'works_started', 'further_works_started', 'works_completed'] as const,
      'made_safe (emergency); investigated, works_started (relevant safety work done), further_works_started, works_completed (significant)',
    ),
    at: Type.Optional(DateTime({ description: 'when it happened (default now); not in the future, not before the moment of awareness or the milestone it follows; the time of the request is kept as when it was recorded' })),
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

export const SummaryPostedBody = Type.Object(
  { posted_at: Type.Optional(DateTime({ description: 'when the letter was posted (default now); not in the future, not before the summary was issued' })) },
  { additionalProperties: false },
);

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
    law: Nullable(Type.String({ description: 'the instrument the statutory clocks implement and its commencement' })),
    scope: Nullable(Type.String({ description: 'whether the regulations cover the property, and why' })),
    summary_delivery: Nullable(Type.String({ description: 'whether the written summary reached the tenant: a delivery (e-mail, SMS) or a recorded posting' })),
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
    works_working_days: Type.Integer({ description: 'deprecated: no longer a clock (completion is within a reasonable period, reg. 13(4))' }),
    private_rented_policy: Type.Boolean({ description: 'the agency applies the timescales of SI 2025/1042 to its private rented properties in England as policy (default false)' }),
  },
  { description: 'The agency\'s hazard settings (docs/compliance.md "Hazards and statutory clocks")' },
);
export type HazardSettingsDto = Static<typeof HazardSettings>;

export const UpdateHazardSettingsBody = Type.Object(
  {
    works_working_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 260, description: 'deprecated: 1 to 260, kept, no longer a clock' })),
    private_rented_policy: Type.Optional(Type.Boolean({ description: 'apply the timescales to private rented properties in England as policy' })),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const AddressParams = Type.Object({ uuid: Uuid({ description: 'the property (address)' }) }, { additionalProperties: false });

export const PropertyScope = Type.Object(
  {
    address_uuid: Uuid(),
    tenure: Enum(['social', 'private_rented'] as const, 'social housing, or private rented (the default)'),
    nation: Enum(['england', 'wales', 'scotland', 'northern_ireland'] as const, 'stated, or from the postcode'),
    nation_from: Enum(['stated', 'postcode', 'assumed'] as const, 'where the nation comes from; assumed: England, for a postcode that straddles a border'),
    stated: Type.Boolean({ description: 'the tenure or nation was stated on the property' }),
    scope: Enum(['social', 'private_rented_policy', 'not_covered'] as const, 'what a hazard at the property runs'),
    scope_text: Type.String(),
  },
  { description: 'The Awaab\'s Law scope of a property (docs/compliance.md "Scope")' },
);

export const PropertyScopeBody = Type.Object(
  {
    tenure: Enum(['social', 'private_rented'] as const, 'social housing or private rented'),
    nation: Type.Optional(Nullable(Enum(['england', 'wales', 'scotland', 'northern_ireland'] as const, 'the nation (null: from the postcode)'))),
  },
  { additionalProperties: false },
);
export type PropertyScopeInput = Static<typeof PropertyScopeBody>;
export type UpdateHazardSettingsInput = Static<typeof UpdateHazardSettingsBody>;
