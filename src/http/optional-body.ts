/**
 * The body of a write that carries nothing but an optional csrf_token. A request without any body
 * validates as `{}` (the pipeline's preValidation hook), so such routes keep a strict schema.
 */
import { Type } from 'typebox';
import { CSRF_FIELD_DESCRIPTION } from './route-types.ts';

/** `{ csrf_token? }`, additionalProperties false; the whole body may be left out. */
export const CsrfOnlyBody = Type.Object(
  { csrf_token: Type.Optional(Type.String({ description: CSRF_FIELD_DESCRIPTION })) },
  { additionalProperties: false, description: 'optional: may be left out entirely' },
);
