/**
 * The one error type of the service and the table that maps each code to an HTTP status and the
 * spec's message (spec section 7). Services throw AppError; the error handler renders it in the
 * error envelope. Messages of 5xx errors never reach the client.
 */
import { isUniqueViolation } from '../db/errors.ts';

export type ErrorCode =
  | 'bad_request'
  | 'invalid_parameter'
  | 'unauthenticated'
  | 'invalid_bearer'
  | 'invalid_credentials'
  | 'second_factor'
  | 'forbidden'
  | 'csrf'
  | 'not_found'
  | 'method_not_allowed'
  | 'unsupported_media_type'
  | 'conflict'
  | 'unprocessable'
  | 'payload_too_large'
  | 'rate_limited'
  | 'unavailable'
  | 'bad_gateway'
  | 'internal';

interface ErrorSpec {
  status: number;
  /** Builds the client-facing message from the optional detail. */
  message: (detail?: string) => string;
}

/** Code -> status and message (spec 7; docs/api.md "Errors"). */
export const ERROR_TABLE: Record<ErrorCode, ErrorSpec> = {
  bad_request: { status: 400, message: (d) => d ?? 'Bad request' },
  invalid_parameter: {
    status: 400,
    message: (d) => `Invalid or missing required parameter: ${d ?? 'body'}`,
  },
  unauthenticated: { status: 401, message: () => 'Authentication required. Please log in.' },
  invalid_bearer: { status: 401, message: () => 'Unauthorized. Valid Bearer token required.' },
  invalid_credentials: { status: 401, message: () => 'Invalid email or password' },
  /** A sign-in waiting for its second factor, or a wrong code (docs/api.md "Additions: the second factor"). */
  second_factor: { status: 401, message: (d) => d ?? 'Second factor required' },
  forbidden: {
    status: 403,
    message: (d) => d ?? 'You do not have permission to perform this action',
  },
  csrf: { status: 403, message: () => 'Invalid or missing CSRF token' },
  not_found: { status: 404, message: (d) => `${d ?? 'Resource'} not found` },
  method_not_allowed: { status: 405, message: (d) => d ?? 'Method not allowed' },
  unsupported_media_type: { status: 415, message: (d) => d ?? 'Unsupported Content-Type' },
  conflict: { status: 409, message: (d) => d ?? 'Conflict' },
  unprocessable: { status: 422, message: (d) => d ?? 'Unprocessable request' },
  payload_too_large: { status: 413, message: (d) => d ?? 'Request body is too large' },
  rate_limited: { status: 429, message: () => 'Rate limit exceeded' },
  unavailable: { status: 503, message: (d) => d ?? 'Service temporarily unavailable. Please try again.' },
  bad_gateway: { status: 502, message: (d) => d ?? 'The connected service did not answer correctly' },
  internal: { status: 500, message: () => 'An error occurred. Please try again.' },
};

/**
 * A failure with a known meaning.
 * @param code one of ErrorCode; decides status and message
 * @param detail the variable part of the message: the parameter name for invalid_parameter,
 *   the resource name for not_found ("Job" -> "Job not found"), or the whole message otherwise
 */
export class AppError extends Error {
  readonly statusCode: number;
  readonly publicMessage: string;
  /** Response headers that belong to this error (Retry-After and X-RateLimit-* on 429). */
  headers?: Record<string, string>;

  readonly code: ErrorCode;
  /** Extra top-level fields of the error body (for example the 429 fields). */
  readonly extra?: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, detail?: string, extra?: Record<string, unknown>) {
    const spec = ERROR_TABLE[code];
    const message = spec.message(detail);
    super(message);
    this.code = code;
    this.extra = extra;
    this.name = 'AppError';
    this.statusCode = spec.status;
    this.publicMessage = spec.status >= 500 && code === 'internal' ? ERROR_TABLE.internal.message() : message;
  }
}

/** Shorthand: `throw notFound('Job')` -> 404 "Job not found". */
export const notFound = (resource: string) => new AppError('not_found', resource);
/** Shorthand: `throw invalidParam('title')` -> 400 "Invalid or missing required parameter: title". */
export const invalidParam = (name: string) => new AppError('invalid_parameter', name);
/** Shorthand for 409 with a message. */
export const conflict = (message: string) => new AppError('conflict', message);
/** Shorthand for 403; default message from the spec. */
export const forbidden = (message?: string) => new AppError('forbidden', message);

/**
 * A `.catch` handler turning a unique violation (a concurrent create or rename that slipped past
 * the service's own check) into 409 with `message`; any other error is rethrown.
 */
export function conflictOnUnique(message: string) {
  return (err: unknown): never => {
    if (isUniqueViolation(err)) throw conflict(message);
    throw err;
  };
}
