/**
 * Turning a failed call into words for the user, next to the field or action that caused it
 * (docs/console.md "Errors"): the error envelope's text (spec 7), the field it names
 * ("Invalid or missing required parameter: <name>"), 429 with its wait, and no connection at all.
 */

/** What the page shows for a failure. */
export interface Problem {
  /** The sentence shown. */
  message: string;
  /** The form field the envelope names, when it names one. */
  field: string | null;
  /** True when trying again later can help (429, offline, 5xx). */
  retry: boolean;
  /** Seconds to wait before retrying (429's Retry-After). */
  retryAfterSeconds: number | null;
  /** HTTP status, or 0 when the request never got an answer. */
  status: number;
}

/** The field named by an envelope message ("Invalid or missing required parameter: title" -> "title"). */
export function fieldOf(message: string): string | null {
  const m = /(?:parameter|field):\s*([A-Za-z_][\w.]*)/.exec(message);
  return m ? m[1]!.split('.').pop()! : null;
}

interface ErrorLike {
  name?: string;
  message?: string;
  status?: number;
  retryAfterSeconds?: number;
}

/**
 * Classifies an error thrown by the typed client (CaretakerError, RateLimitedError) or by fetch
 * itself (TypeError when offline or the server is unreachable).
 */
export function describeProblem(error: unknown, online = true): Problem {
  const e = (typeof error === 'object' && error !== null ? error : {}) as ErrorLike;
  if (typeof e.status === 'number') {
    if (e.status === 429) {
      const wait = e.retryAfterSeconds ?? 1;
      return { message: `Too many requests just now. Please wait ${wait} s and try again.`, field: null, retry: true, retryAfterSeconds: wait, status: 429 };
    }
    if (e.status >= 500) {
      return { message: 'The server could not complete this. Please try again.', field: null, retry: true, retryAfterSeconds: null, status: e.status };
    }
    const message = e.message || 'The request was refused.';
    return { message, field: e.status === 400 ? fieldOf(message) : null, retry: false, retryAfterSeconds: null, status: e.status };
  }
  if (!online || e.name === 'TypeError') {
    return {
      message: 'You appear to be offline or the server cannot be reached. Check the connection and try again.',
      field: null,
      retry: true,
      retryAfterSeconds: null,
      status: 0,
    };
  }
  return { message: e.message || 'Something went wrong.', field: null, retry: true, retryAfterSeconds: null, status: 0 };
}
