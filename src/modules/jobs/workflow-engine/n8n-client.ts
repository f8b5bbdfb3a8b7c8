/**
 * A small client of the n8n public REST API v1 (the connected workflow engine, spec 4.15;
 * docs/workflow-engine.md): list workflows, read one, list executions. Node's fetch with
 * AbortSignal.timeout; the API key goes in X-N8N-API-KEY; every answer is checked against its
 * documented shape (TypeBox Value.Check) before it is returned.
 *
 * It follows how a real n8n 2.x answers, not only its documentation:
 * - pinned test data is left out of workflows (`excludePinnedData=true`), and an answer is read
 *   up to MAX_BODY_BYTES at most;
 * - once a cursor is given n8n takes the page size from the cursor, so the cursor is re-encoded
 *   with the page size asked for (`withLimit`);
 * - only n8n's JSON not-found is a missing workflow; any other 404 (Express's HTML page while n8n
 *   starts, a wrong base URL, the public API turned off) means the engine is unavailable;
 * - a 400 about the cursor is the caller's bad cursor; a 403 names the scope the key lacks.
 */
import type { TSchema, Static } from 'typebox';
import { Value } from 'typebox/value';
import { AppError, invalidParam, notFound } from '../../../core/errors.ts';
import { EngineExecutionPage, EngineWorkflow, EngineWorkflowPage } from './workflow-engine.schemas.ts';

/** Largest engine answer read, in bytes. */
export const MAX_BODY_BYTES = 10 * 1_048_576;

export interface EngineSettings {
  /** Base URL without a trailing slash, for example https://n8n.example.com. */
  url: string;
  apiKey: string;
  /** Whole-request time limit in milliseconds (connect, headers and body). */
  timeoutMs: number;
}

/** What a 404 of the route means when n8n itself says not found. */
type NotFoundAs = string | undefined;

const badGateway = (message: string) => new AppError('bad_gateway', message);
/** The engine answers, but not as an n8n with its public API enabled at this base URL. */
export const engineUnavailable = () =>
  new AppError('unavailable', 'The workflow engine is unavailable or misconfigured: check that n8n has started, that its public API is enabled and that CARETAKER_WORKFLOW_ENGINE_URL is its base URL');

class TooLarge extends Error {}

async function readBounded(res: Response): Promise<string> {
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new TooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Re-encodes an n8n cursor (base64 JSON holding `limit` with `offset` or `lastId`) with another
 * page size, so that `limit` means the same on every page. A cursor that is not of that form is
 * passed on unchanged (n8n then judges it).
 * @returns the cursor to send
 */
export function withLimit(cursor: string, limit: number): string {
  try {
    const decoded = JSON.parse(Buffer.from(cursor, 'base64').toString()) as unknown;
    if (!decoded || typeof decoded !== 'object' || Array.isArray(decoded)) return cursor;
    const c = decoded as Record<string, unknown>;
    if (typeof c.limit !== 'number' || !('offset' in c || 'lastId' in c)) return cursor;
    return Buffer.from(JSON.stringify({ ...c, limit })).toString('base64');
  } catch {
    return cursor;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** n8n's JSON error body `{ message }`, or undefined for anything else (HTML, garbage). */
function engineMessage(text: string): string | undefined {
  const body = parseJson(text);
  return body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string' ? (body as { message: string }).message : undefined;
}

export class N8nClient {
  private readonly settings: EngineSettings;

  constructor(settings: EngineSettings) {
    this.settings = settings;
  }

  /**
   * GET {url}/api/v1{path}?query and check the JSON body against `schema`.
   * @param scope the API-key scope n8n requires for this route (named in the 403 message)
   * @param notFoundAs resource name for n8n's JSON 404 (404 "<name> not found"); otherwise 404 is 503
   * @throws 400 cursor (n8n refused the cursor), 404 notFoundAs, 502 (no answer in time,
   *   unreachable, refused key, missing scope, other status, unexpected or oversized answer),
   *   503 (an answer that is not n8n's: not started, wrong base URL, public API off)
   */
  private async get<S extends TSchema>(
    path: string,
    query: Record<string, string | number | boolean | undefined>,
    schema: S,
    scope: string,
    notFoundAs?: NotFoundAs,
  ): Promise<Static<S>> {
    const url = new URL(`${this.settings.url}/api/v1${path}`);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
    const signal = AbortSignal.timeout(this.settings.timeoutMs);
    let text: string;
    let status: number;
    try {
      const res = await fetch(url, { headers: { 'X-N8N-API-KEY': this.settings.apiKey, accept: 'application/json' }, signal, redirect: 'error' });
      status = res.status;
      text = await readBounded(res);
    } catch (err) {
      if (err instanceof TooLarge) throw badGateway(`The workflow engine's answer is larger than ${MAX_BODY_BYTES / 1_048_576} MB`);
      if (signal.aborted) throw badGateway('The workflow engine did not answer in time');
      throw badGateway('The workflow engine is unreachable');
    }
    if (status === 404) {
      if (notFoundAs && engineMessage(text) !== undefined) throw notFound(notFoundAs);
      throw engineUnavailable();
    }
    if (status === 400 && /cursor/i.test(engineMessage(text) ?? '')) throw invalidParam('cursor');
    if (status === 401) throw badGateway('The workflow engine rejected the API key');
    if (status === 403) throw badGateway(`The workflow engine's API key lacks the ${scope} scope`);
    if (status < 200 || status > 299) throw badGateway(`The workflow engine answered with status ${status}`);
    const body = parseJson(text);
    if (body === undefined || !Value.Check(schema, body)) throw badGateway('The workflow engine sent an unexpected response');
    return body as Static<S>;
  }

  /** GET /api/v1/workflows: one page of workflows without pinned data (active=true for only the active ones). */
  listWorkflows(q: { limit: number; cursor?: string | undefined; active?: boolean | undefined }) {
    const cursor = q.cursor === undefined ? undefined : withLimit(q.cursor, q.limit);
    return this.get('/workflows', { limit: q.limit, cursor, active: q.active, excludePinnedData: true }, EngineWorkflowPage, 'workflow:list');
  }

  /** GET /api/v1/workflows/{id}: one workflow without pinned data; 404 "Workflow not found" when n8n has none. */
  getWorkflow(id: string) {
    return this.get(`/workflows/${encodeURIComponent(id)}`, { excludePinnedData: true }, EngineWorkflow, 'workflow:read', 'Workflow');
  }

  /**
   * GET /api/v1/executions: one page of executions, newest first, optionally of one workflow or
   * status. n8n leaves running executions out unless `status=running` is asked for.
   */
  listExecutions(q: { limit: number; cursor?: string | undefined; workflowId?: string | undefined; status?: string | undefined }) {
    const cursor = q.cursor === undefined ? undefined : withLimit(q.cursor, q.limit);
    return this.get('/executions', { workflowId: q.workflowId, status: q.status, limit: q.limit, cursor, includeData: false }, EngineExecutionPage, 'execution:list');
  }
}
