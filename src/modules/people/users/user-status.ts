/**
 * The one list of account statuses (column users.status): every request and response schema that
 * carries a user's status uses these, so a status the database can hold always validates on the
 * way out (a response schema missing `invited` made GET /api/agents fail).
 */
import { Type } from 'typebox';

/** Every status an account can have. */
export const USER_STATUSES = ['active', 'disabled', 'invited'] as const;
export type UserStatusValue = (typeof USER_STATUSES)[number];

/** TypeBox schema of a user status. */
export const UserStatus = (description?: string) =>
  Type.Union([Type.Literal(USER_STATUSES[0]), Type.Literal(USER_STATUSES[1]), Type.Literal(USER_STATUSES[2])], description ? { description } : {});
