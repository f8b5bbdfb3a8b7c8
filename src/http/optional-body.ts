/**
 * The body of a write that carries nothing but an optional csrf_token: an empty object schema, to
 * which the pipeline adds the field (src/http/pipeline.ts, docs/security.md "CSRF"). A request
 * without any body validates as `{}` (the pipeline's preValidation hook), so such routes keep a
 * strict schema.
 */
import { Type } from 'typebox';

/** `{}` (plus the pipeline's `csrf_token?`), additionalProperties false; the whole body may be left out. */
export const CsrfOnlyBody = Type.Object(
  {},
  { additionalProperties: false, description: 'optional: may be left out entirely' },
);
