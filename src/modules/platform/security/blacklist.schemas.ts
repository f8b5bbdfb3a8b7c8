/** Request and response schemas of the security blacklist (docs/security.md "Blacklist"). */
import { Type, type Static } from 'typebox';
import { Pagination } from '../../../http/pagination.ts';
import { DateTime, Uuid } from '../../../http/schema-primitives.ts';

const Kind = Type.Union([Type.Literal('ip'), Type.Literal('cidr'), Type.Literal('account')]);

export const BlacklistEntry = Type.Object({
  uuid: Uuid(),
  kind: Kind,
  value: Type.Union([Type.String(), Type.Null()], { description: "the address ('ip') or range ('cidr'); null for accounts" }),
  user_uuid: Type.Union([Uuid(), Type.Null()], { description: 'the blocked account (kind account)' }),
  user_email: Type.Union([Type.String(), Type.Null()]),
  reason: Type.String(),
  automatic: Type.Boolean({ description: 'added by the login-throttle rule, not a person' }),
  added_by_uuid: Type.Union([Uuid(), Type.Null()]),
  expires_at: Type.Union([DateTime(), Type.Null()], { description: 'null: until removed' }),
  created_at: DateTime(),
});
export type BlacklistEntryDto = Static<typeof BlacklistEntry>;

export const ListBlacklistQuery = Type.Object({ kind: Type.Optional(Kind), ...Pagination }, { additionalProperties: false });

export const CreateBlacklistBody = Type.Object(
  {
    kind: Kind,
    value: Type.Optional(Type.String({ minLength: 2, maxLength: 64, description: "kind ip: an IPv4 or IPv6 address; kind cidr: a range such as 203.0.113.0/24 or 2001:db8::/32" })),
    user_uuid: Type.Optional(Uuid({ description: 'kind account: the user to block' })),
    reason: Type.String({ minLength: 1, maxLength: 500 }),
    expires_at: Type.Optional(Type.Union([DateTime(), Type.Null()], { description: 'optional end of the block (UTC); must be in the future' })),
  },
  { additionalProperties: false },
);
export type CreateBlacklistInput = Static<typeof CreateBlacklistBody>;

export const BlacklistParams = Type.Object({ uuid: Uuid() }, { additionalProperties: false });
