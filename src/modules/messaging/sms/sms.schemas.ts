/** Schemas of the SMS endpoints (docs/conversations.md "SMS"). */
import { Type } from 'typebox';
import { IsoDate } from '../../../http/schema-primitives.ts';

/** The form Twilio posts (status callbacks and incoming messages): every parameter is text. */
export const TwilioForm = Type.Record(Type.String(), Type.Union([Type.String(), Type.Array(Type.String())]), {
  description: "Twilio's form parameters (MessageSid, MessageStatus, ErrorCode, Price, PriceUnit; From, To, Body), signed in X-Twilio-Signature",
});

export const UsageQuery = Type.Object(
  {
    from: Type.Optional(IsoDate({ description: 'first London day (default: the first of this month)' })),
    to: Type.Optional(IsoDate({ description: 'day after the last (default: the first of next month)' })),
  },
  { additionalProperties: false },
);

export const Usage = Type.Object({
  from: IsoDate(),
  to: IsoDate(),
  messages: Type.Integer({ minimum: 0, description: 'SMS handed to the provider' }),
  segments: Type.Integer({ minimum: 0, description: 'billed segments (160 GSM-7 or 70 UCS-2 characters each)' }),
  delivered: Type.Integer({ minimum: 0 }),
  failed: Type.Integer({ minimum: 0, description: 'failed or undelivered' }),
  received: Type.Integer({ minimum: 0, description: 'replies received and matched to the agency' }),
  unpriced: Type.Integer({ minimum: 0, description: 'messages whose price the provider has not reported yet' }),
  costs: Type.Array(
    Type.Object({
      currency: Type.String({ description: 'ISO 4217, as the provider bills' }),
      price_micros: Type.Integer({ minimum: 0, description: 'millionths of the currency unit (exact)' }),
      amount_minor: Type.Integer({ minimum: 0, description: 'rounded to the minor unit (pence)' }),
    }),
  ),
});
