/** Schemas of the message template endpoints (docs/messaging.md "Templates"). */
import { Type, type Static } from 'typebox';
import { Pagination } from '../../../http/pagination.ts';
import { DateTime, Nullable } from '../../../http/schema-primitives.ts';

/** Text without NUL characters (PostgreSQL text cannot hold them). */
const NO_NUL = '^[^\\u0000]*$';
const Part = (description: string, maxLength: number) => Type.String({ minLength: 1, maxLength, pattern: NO_NUL, description });

/** The parts of a template; which ones a channel has: email subject, mjml, text_body; push title, body; sms text_body. */
export const TemplateParts = Type.Object(
  {
    subject: Type.Optional(Part('e-mail subject (Liquid)', 300)),
    mjml: Type.Optional(Part('e-mail HTML as MJML with Liquid inside', 100_000)),
    text_body: Type.Optional(Part('plain text of the e-mail, or the SMS text (Liquid)', 20_000)),
    title: Type.Optional(Part('push title (Liquid)', 200)),
    body: Type.Optional(Part('push body (Liquid)', 1_000)),
  },
  { additionalProperties: false },
);
export type TemplatePartsInput = Static<typeof TemplateParts>;

export const MessageTemplate = Type.Object(
  {
    id: Type.String({ description: '<kind>.<channel>, e.g. job.visit_booked.email' }),
    event: Type.String({ description: 'message kind, e.g. job.visit_booked' }),
    channel: Type.String({ description: 'email | push | sms' }),
    description: Type.String(),
    trigger: Type.String({ description: 'the domain event(s) that send it' }),
    audience: Type.String({ description: 'tenant | contractor | branch_agents | agency_admins | landlords' }),
    source: Type.String({ description: 'default (built in) or override (the agency\'s)' }),
    version: Type.Integer({ description: 'latest saved version; 0 when never overridden' }),
    parts: TemplateParts,
    variables: Type.Array(Type.String(), { description: 'the variables the template may use' }),
    updated_at: Nullable(DateTime()),
    updated_by: Nullable(Type.String()),
  },
  { description: 'A message template in force for the agency' },
);
export type MessageTemplateDto = Static<typeof MessageTemplate>;

export const TemplateVersion = Type.Object({
  version: Type.Integer(),
  reverted: Type.Boolean({ description: 'true: this version restored the built-in default' }),
  parts: TemplateParts,
  created_at: DateTime(),
  created_by: Nullable(Type.String()),
});

export const ListTemplatesQuery = Type.Object(
  {
    event: Type.Optional(Type.String({ maxLength: 100, pattern: NO_NUL, description: 'message kind' })),
    channel: Type.Optional(Type.Unsafe<'email' | 'push' | 'sms'>({ type: 'string', enum: ['email', 'push', 'sms'] })),
    ...Pagination,
  },
  { additionalProperties: false },
);
export type ListTemplatesQuery = Static<typeof ListTemplatesQuery>;

export const TemplateParams = Type.Object({ id: Type.String({ minLength: 3, maxLength: 120 }) }, { additionalProperties: false });

export const SaveTemplateBody = Type.Object(
  { ...TemplateParts.properties },
  { additionalProperties: false },
);
export type SaveTemplateInput = Static<typeof SaveTemplateBody>;

export const Rendered = Type.Object({
  subject: Type.Optional(Type.String()),
  html: Type.Optional(Type.String()),
  text: Type.Optional(Type.String()),
  title: Type.Optional(Type.String()),
  body: Type.Optional(Type.String()),
  sample: Type.Record(Type.String(), Type.String(), { description: 'the sample values used' }),
});
