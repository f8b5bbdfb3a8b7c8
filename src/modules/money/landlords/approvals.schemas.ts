/** Schemas of the approval endpoints (docs/landlords.md "Approvals"). Amounts in integer pence. */
import { Type, type Static } from 'typebox';
import { DateTime, Nullable, Pence, Uuid } from '../../../http/schema-primitives.ts';
import { Pagination } from '../../../http/pagination.ts';

const STATUSES = ['pending', 'approved', 'declined', 'question', 'expired', 'cancelled'] as const;
const Status = Type.Union(STATUSES.map((s) => Type.Literal(s)), { description: STATUSES.join(' | ') });

export const Approval = Type.Object(
  {
    uuid: Uuid(),
    status: Type.Union([
      Type.Literal('pending'), Type.Literal('approved'), Type.Literal('declined'), Type.Literal('question'), Type.Literal('expired'), Type.Literal('cancelled'),
    ], { description: STATUSES.join(' | ') }),
    job_uuid: Uuid(),
    job_reference: Type.String(),
    quote_uuid: Nullable(Uuid({ description: 'the quote waiting, when the request came from a quote' })),
    landlord_uuid: Uuid(),
    landlord_name: Type.String(),
    amount_pence: Pence({ description: 'the cost to approve, incl. VAT' }),
    limit_pence: Pence({ description: 'the spend limit it is above' }),
    description: Type.String(),
    comment: Nullable(Type.String({ description: "the landlord's comment or question" })),
    created_at: DateTime(),
    expires_at: DateTime(),
    reminded_at: Nullable(DateTime()),
    answered_at: Nullable(DateTime()),
    escalated_at: Nullable(DateTime({ description: 'when it expired and the agents were told' })),
  },
  { description: 'A request for a landlord to approve a cost above the spend limit' },
);
export type ApprovalDto = Static<typeof Approval>;

export const ListApprovalsQuery = Type.Object(
  {
    status: Type.Optional(Status),
    job_uuid: Type.Optional(Uuid()),
    landlord_uuid: Type.Optional(Uuid()),
    ...Pagination,
  },
  { additionalProperties: false },
);
export type ListApprovalsQuery = Static<typeof ListApprovalsQuery>;

export const RequestApprovalBody = Type.Object(
  {
    amount_pence: Pence({ description: 'the job cost to approve, pence incl. VAT' }),
    description: Type.String({ minLength: 1, maxLength: 500, pattern: '\\S', description: 'what the money is for, as the landlord will read it' }),
  },
  { additionalProperties: false },
);
export type RequestApprovalInput = Static<typeof RequestApprovalBody>;

export const ApprovalDecision = Type.Object({
  required: Type.Boolean({ description: 'true when the cost is above the limit and waits for the landlord' }),
  limit_pence: Nullable(Pence({ description: 'the limit that applied; null: none' })),
  limit_source: Type.Union([Type.Literal('property'), Type.Literal('landlord'), Type.Literal('agency'), Type.Literal('none')]),
  approval: Nullable(Approval),
});

export const LinkParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 2000 }) }, { additionalProperties: false });
export const LinkQuery = Type.Object(
  { action: Type.Optional(Type.Union([Type.Literal('approve'), Type.Literal('decline'), Type.Literal('question')])) },
  { additionalProperties: false },
);
export const LinkAnswerBody = Type.Object(
  {
    action: Type.Union([Type.Literal('approve'), Type.Literal('decline'), Type.Literal('question')]),
    comment: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);
