/**
 * Renders every failure in the spec's error envelope (spec 2.1, 7): AppError by its code, schema
 * failures as 400 "Invalid or missing required parameter: <name>", malformed or oversized bodies
 * as 400/413, an unreachable database as 503, anything else as 500 with the spec's text and no
 * internals (the details go to the log only). An expected 502 or 503 (an AppError: the workflow
 * engine, Redis, the file store, a server shutting down) is logged as one warning without a stack
 * trace, `outside service failed` for a 502 and `service unavailable` for a 503; unexpected
 * failures at error level with one.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from './envelope.ts';
import { AppError, ERROR_TABLE } from '../core/errors.ts';
import { parameterName } from './validation.ts';
import { StoredAnswerReplay } from './idempotency.ts';

const DB_DOWN_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH',
  '57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006',
]);

/** True for errors that mean the database cannot be reached right now. */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; message?: unknown };
  if (typeof e.code === 'string' && DB_DOWN_CODES.has(e.code)) return true;
  const msg = typeof e.message === 'string' ? e.message : '';
  return /timeout exceeded when trying to connect|Connection terminated|connect ECONNREFUSED|Client has encountered a connection error/i.test(msg);
}

/** How a failure is logged: at error level with its stack, as a warning without one, or not at all. */
export type ErrorLog = 'error' | 'warn' | false;

/** Maps an error to { status, body, log }. */
export function renderError(err: unknown): { status: number; body: Record<string, unknown>; log: ErrorLog } {
  if (err instanceof AppError) {
    const log: ErrorLog = err.statusCode < 500 ? false : err.code === 'internal' ? 'error' : 'warn';
    return { status: err.statusCode, body: errorBody(err.publicMessage, err.extra), log };
  }
  const fe = err as FastifyError & { validation?: unknown[]; validationContext?: string };
  if (fe && Array.isArray(fe.validation)) {
    const name = parameterName(fe.validation as never[], fe.validationContext);
    return { status: 400, body: errorBody(ERROR_TABLE.invalid_parameter.message(name)), log: false };
  }
  switch (fe?.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return { status: 413, body: errorBody('Request body is too large'), log: false };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, body: errorBody('Malformed JSON in request body'), log: false };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, body: errorBody(ERROR_TABLE.invalid_parameter.message('body')), log: false };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, body: errorBody(ERROR_TABLE.unsupported_media_type.message()), log: false };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, body: errorBody('Unsupported or malformed request body'), log: false };
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return { status: 400, body: errorBody('Expected a multipart/form-data body'), log: false };
    default:
      break;
  }
  if (fe instanceof SyntaxError || fe?.name === 'SyntaxError') {
    return { status: 400, body: errorBody('Malformed JSON in request body'), log: false };
  }
  if (isDatabaseUnavailable(err)) {
    return { status: 503, body: errorBody(ERROR_TABLE.unavailable.message()), log: 'error' };
  }
  const status = typeof fe?.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500) {
    // Other client errors from Fastify or a plugin (for example prototype poisoning): the status
    // is kept, the text is ours.
    const text = status === 413 ? 'Request body is too large' : status === 404 ? 'Resource not found' : 'Bad request';
    return { status, body: errorBody(status === 415 ? ERROR_TABLE.unsupported_media_type.message() : text), log: false };
  }
  return { status: 500, body: errorBody(ERROR_TABLE.internal.message()), log: 'error' };
}

/** Sets the status and headers of `err`'s answer, logs it if it should be, and returns its body. */
function answerError(err: unknown, request: FastifyRequest, reply: FastifyReply): Record<string, unknown> {
  const { status, body, log } = renderError(err);
  if (err instanceof AppError && err.headers) void reply.headers(err.headers);
  if (log === 'error') request.log.error({ err }, 'request failed');
  else if (log === 'warn') request.log.warn({ status, error: (err as Error).message }, status === 503 ? 'service unavailable' : 'outside service failed');
  void reply.status(status).type('application/json; charset=utf-8');
  return body;
}

/**
 * Fastify error handler using renderError. An overlapped read (src/http/pipeline.ts) that fails
 * before its admission is known waits for it first: a refusal (429, 401, 503) is answered instead
 * of the read's own error, as the ordinary order would have. A StoredAnswerReplay (a multipart
 * write repeated under its Idempotency-Key, src/http/idempotency.ts) sends the stored answer.
 * @returns nothing (the answer is sent), or a promise of the error's body for Fastify to send
 */
export function errorHandler(err: unknown, request: FastifyRequest, reply: FastifyReply): void | Promise<Record<string, unknown>> {
  // A multipart write whose Idempotency-Key holds this request's first answer: that answer again.
  if (err instanceof StoredAnswerReplay) {
    void err.send(request, reply);
    return;
  }
  const admission = request.admission;
  if (!admission) {
    void reply.send(answerError(err, request, reply));
    return;
  }
  request.admission = null;
  return admission.then(
    () => answerError(err, request, reply),
    (refusal: unknown) => answerError(refusal, request, reply),
  );
}

/**
 * Fastify's `frameworkErrors`: failures of the router before a route is chosen, in the envelope.
 * FST_ERR_MAX_PARAM_LENGTH (a path parameter over 100 characters): 414 'Request path is too long';
 * FST_ERR_BAD_URL (a path that does not decode): 400 'Malformed request path'; anything else 400.
 * The path is never echoed back.
 */
export function frameworkErrorHandler(err: unknown, _request: FastifyRequest, reply: FastifyReply): void {
  const code = (err as { code?: string } | null)?.code;
  const [status, text] = code === 'FST_ERR_MAX_PARAM_LENGTH' ? [414, 'Request path is too long'] : [400, 'Malformed request path'];
  void reply.status(status).type('application/json; charset=utf-8').header('x-content-type-options', 'nosniff').send(errorBody(text));
}
