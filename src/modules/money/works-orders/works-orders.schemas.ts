/** Schemas of works orders by link and competing quotes (docs/works-orders.md). */
import { Type, type Static } from 'typebox';
import { DateTime, Nullable, Uuid } from '../../../http/schema-primitives.ts';
import { LinesBody } from '../money/index.ts';

export const LINK_STATES = ['live', 'used', 'revoked', 'expired'] as const;

/** A works-order or quote link as the agent sees it (never its token). */
export const WorksOrderLink = Type.Object({
  uuid: Uuid(),
  purpose: Type.Unsafe<'works_order' | 'quote'>({ type: 'string', enum: ['works_order', 'quote'], description: 'works_order: the job to do; quote: an invitation to quote' }),
  state: Type.Unsafe<(typeof LINK_STATES)[number]>({ type: 'string', enum: [...LINK_STATES] }),
  job_uuid: Uuid(),
  job_reference: Type.String(),
  contractor_uuid: Uuid(),
  contractor_name: Type.String(),
  sent_to: Nullable(Type.String({ description: "the contractor's e-mail address" })),
  expires_at: DateTime(),
  created_at: DateTime(),
  last_used_at: Nullable(DateTime()),
  used_at: Nullable(DateTime({ description: 'when a final answer used the link up' })),
  used_action: Nullable(Type.String()),
  revoked_at: Nullable(DateTime()),
});
export type WorksOrderLinkDto = Static<typeof WorksOrderLink>;

export const SendWorksOrderBody = Type.Object(
  { expires_in_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 90, description: 'days the link works (default 30)' })) },
  { additionalProperties: false },
);
export type SendWorksOrderInput = Static<typeof SendWorksOrderBody>;

export const LinkParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 100, description: 'the signed token from the e-mail' }) });

export const LINK_ACTIONS = ['accept', 'decline', 'book', 'note', 'attended', 'completed', 'invoice', 'quote', 'decline_quote'] as const;
export type LinkAction = (typeof LINK_ACTIONS)[number];

const digits = Type.String({ pattern: '^[0-9]{1,9}$' });
const money = Type.String({ pattern: '^[0-9]{1,7}(\\.[0-9]{1,2})?$', description: 'pounds, e.g. 120.50' });

/**
 * One action by link: a form post (browser; a single invoice or quote line in pounds) or JSON
 * (`lines` in pence as in the portal).
 */
export const LinkActionBody = Type.Object(
  {
    action: Type.Unsafe<LinkAction>({ type: 'string', enum: [...LINK_ACTIONS] }),
    reason: Type.Optional(Type.String({ maxLength: 2000, description: 'decline, decline_quote' })),
    scheduled_for: Type.Optional(Type.String({ format: 'date', description: 'book: visit date YYYY-MM-DD' })),
    time_range_id: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), digits], { description: 'book: slot' })),
    window_uuid: Type.Optional(Uuid("book: a timed visit inside this window of the tenant's (tenant_windows), instead of scheduled_for")),
    from: Type.Optional(Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'book with window_uuid: arrival from, London HH:MM' })),
    until: Type.Optional(Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'book with window_uuid: until, London HH:MM' })),
    body: Type.Optional(Type.String({ maxLength: 5000, description: 'note: the text' })),
    lines: Type.Optional(LinesBody),
    line_description: Type.Optional(Type.String({ maxLength: 500 })),
    line_quantity: Type.Optional(Type.String({ pattern: '^[0-9]{1,5}(\\.[0-9]{1,3})?$' })),
    line_unit_price: Type.Optional(money),
    line_vat_rate: Type.Optional(Type.Unsafe<'standard' | 'reduced' | 'zero' | 'exempt'>({ type: 'string', enum: ['standard', 'reduced', 'zero', 'exempt'] })),
    contractor_reference: Type.Optional(Type.String({ maxLength: 60, description: 'invoice: your invoice number' })),
    notes: Type.Optional(Type.String({ maxLength: 2000, description: 'invoice or quote notes' })),
  },
  { additionalProperties: false },
);
export type LinkActionInput = Static<typeof LinkActionBody>;

/** What a link shows (JSON). */
export const LinkView = Type.Object({
  purpose: Type.String(),
  agency_name: Type.String(),
  contractor_name: Type.String(),
  expires_at: DateTime(),
  job: Type.Object({
    uuid: Uuid(), reference: Type.String(), title: Type.String(), description: Type.String(), priority: Type.Integer(), status_id: Type.Integer(), status: Type.String(),
    address: Nullable(Type.String()), scheduled_for: Nullable(Type.String({ description: 'YYYY-MM-DD' })), time_range: Nullable(Type.String()),
    accepted_at: Nullable(DateTime()), attended_at: Nullable(DateTime()), completed_at: Nullable(DateTime()),
  }),
  actions: Type.Array(Type.String(), { description: 'what the link can do now' }),
  time_ranges: Type.Array(Type.Object({ id: Type.Integer(), label: Type.String() })),
  tenant_windows: Type.Array(Type.Object({ uuid: Uuid(), starts_at: DateTime(), ends_at: DateTime(), label: Type.String() }), {
    description: "the tenant's availability windows (docs/tenant-reporting.md \"Booking the visit\"): the visit is booked inside one",
  }),
  invoices: Type.Array(Type.Object({ uuid: Uuid(), status: Type.String(), gross_pence: Type.Integer() })),
  quote_deadline: Nullable(DateTime({ description: 'quote links: answer by' })),
  message: Nullable(Type.String({ description: 'the outcome of the last action' })),
});
export type LinkViewDto = Static<typeof LinkView>;

// Competing quotes

export const CreateQuoteRequestBody = Type.Object(
  {
    contractor_uuids: Type.Array(Uuid(), { minItems: 2, maxItems: 10, uniqueItems: true, description: 'the contractors asked to quote (2 to 10)' }),
    deadline_at: DateTime({ description: 'answers accepted until (future, at most 60 days ahead)' }),
    notes: Type.Optional(Type.String({ maxLength: 2000, description: 'shown to the contractors' })),
  },
  { additionalProperties: false },
);
export type CreateQuoteRequestInput = Static<typeof CreateQuoteRequestBody>;

export const AwardBody = Type.Object({ quote_uuid: Uuid('the winning quote'), reason: Type.Optional(Type.String({ maxLength: 2000 })) }, { additionalProperties: false });
export type AwardInput = Static<typeof AwardBody>;

export const QuoteRequestEntry = Type.Object({
  contractor_uuid: Uuid(),
  contractor_name: Type.String(),
  status: Type.Unsafe<'invited' | 'quoted' | 'declined' | 'awarded' | 'not_awarded'>({ type: 'string', enum: ['invited', 'quoted', 'declined', 'awarded', 'not_awarded'] }),
  responded_at: Nullable(DateTime()),
  quote_uuid: Nullable(Uuid()),
  quote_status: Nullable(Type.String()),
  net_pence: Nullable(Type.Integer()),
  vat_pence: Nullable(Type.Integer()),
  gross_pence: Nullable(Type.Integer()),
  notes: Nullable(Type.String()),
  rank: Nullable(Type.Integer({ description: '1 = cheapest gross among the quotes received' })),
});

export const QuoteRequest = Type.Object({
  uuid: Uuid(),
  job_uuid: Uuid(),
  job_reference: Type.String(),
  job_title: Type.String(),
  status: Type.Unsafe<'open' | 'awarded' | 'cancelled'>({ type: 'string', enum: ['open', 'awarded', 'cancelled'] }),
  deadline_at: DateTime(),
  past_deadline: Type.Boolean(),
  notes: Nullable(Type.String()),
  awarded_quote_uuid: Nullable(Uuid()),
  awarded_at: Nullable(DateTime()),
  created_at: DateTime(),
  entries: Type.Array(QuoteRequestEntry, { description: 'side by side: one per contractor asked, cheapest quote first, then those without one' }),
});
export type QuoteRequestDto = Static<typeof QuoteRequest>;

export const QuoteRequestParams = Type.Object({ uuid: Uuid() }, { additionalProperties: false });

export const Invitation = Type.Object({
  quote_request_uuid: Uuid(),
  job_uuid: Uuid(),
  job_reference: Type.String(),
  job_title: Type.String(),
  job_description: Type.String(),
  address: Nullable(Type.String()),
  deadline_at: DateTime(),
  notes: Nullable(Type.String()),
  status: Type.String({ description: 'invited | quoted | declined' }),
});

export const PortalQuoteBody = Type.Object(
  {
    lines: Type.Optional(LinesBody),
    notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    decline: Type.Optional(Type.Boolean({ description: 'true: cannot quote (no lines)' })),
    reason: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);
export type PortalQuoteInput = Static<typeof PortalQuoteBody>;
