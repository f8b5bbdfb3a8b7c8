/** Schemas of the outbound-webhook endpoints (docs/webhooks.md). */
import { Type, type Static } from 'typebox';
import { Pagination } from '../../../http/pagination.ts';
import { DateTime, Uuid } from '../../../http/schema-primitives.ts';

const Url = Type.String({ minLength: 8, maxLength: 2048, description: 'https:// URL of the receiver (http:// to loopback only in development)' });
const EventNames = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
  minItems: 1,
  maxItems: 100,
  uniqueItems: true,
  description: 'names of subscribed domain events (docs/events.md), or ["*"] for every event',
});
const Description = Type.String({ maxLength: 500 });
const NullableDateTime = Type.Union([DateTime(), Type.Null()]);

export const Endpoint = Type.Object(
  {
    uuid: Uuid(),
    url: Type.String(),
    description: Type.String(),
    events: Type.Array(Type.String()),
    enabled: Type.Boolean(),
    disabled_reason: Type.Union([Type.String(), Type.Null()]),
    previous_secret_expires_at: NullableDateTime,
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { description: 'Webhook endpoint (the secret is shown only on create and rotation)' },
);
export type EndpointDto = Static<typeof Endpoint>;

export const EndpointWithSecret = Type.Object({
  ...Endpoint.properties,
  secret: Type.String({ description: 'whsec_… signing secret; shown once' }),
});

export const CreateEndpointBody = Type.Object(
  { url: Url, events: EventNames, description: Type.Optional(Description) },
  { additionalProperties: false },
);
export type CreateEndpointInput = Static<typeof CreateEndpointBody>;

export const UpdateEndpointBody = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(EventNames),
    description: Type.Optional(Description),
    enabled: Type.Optional(Type.Boolean({ description: 'true re-enables an endpoint disabled after failures' })),
  },
  { additionalProperties: false },
);
export type UpdateEndpointInput = Static<typeof UpdateEndpointBody>;

export const RotateBody = Type.Object(
  {
    overlap_seconds: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 604_800, default: 86_400, description: 'how long the old secret still signs (0 to 7 days, default 1 day)' }),
    ),
  },
  { additionalProperties: false },
);

export const UuidParams = Type.Object({ uuid: Uuid() }, { additionalProperties: false });

export const Delivery = Type.Object(
  {
    uuid: Uuid(),
    endpoint_uuid: Uuid(),
    event: Type.String(),
    message_id: Type.String({ description: 'the webhook-id header, the same on every attempt' }),
    status: Type.Unsafe<'pending' | 'succeeded' | 'failed'>({ type: 'string', enum: ['pending', 'succeeded', 'failed'] }),
    attempts: Type.Integer(),
    next_attempt_at: NullableDateTime,
    last_attempt_at: NullableDateTime,
    last_response_code: Type.Union([Type.Integer(), Type.Null()]),
    last_duration_ms: Type.Union([Type.Integer(), Type.Null()]),
    last_error: Type.Union([Type.String(), Type.Null()]),
    created_at: DateTime(),
  },
  { description: 'One message to one endpoint and its delivery state' },
);
export type DeliveryDto = Static<typeof Delivery>;

export const ListEndpointsQuery = Type.Object({ ...Pagination }, { additionalProperties: false });
export const ListDeliveriesQuery = Type.Object(
  {
    ...Pagination,
    endpoint_uuid: Type.Optional(Uuid()),
    status: Type.Optional(Type.Unsafe<'pending' | 'succeeded' | 'failed'>({ type: 'string', enum: ['pending', 'succeeded', 'failed'] })),
  },
  { additionalProperties: false },
);
export type ListDeliveriesFilter = Static<typeof ListDeliveriesQuery>;
