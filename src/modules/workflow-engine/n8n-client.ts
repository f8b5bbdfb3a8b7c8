/**
 * A small client of the n8n public REST API v1 (the connected workflow engine, spec 4.15): list
 * workflows, read one, list executions. Node's fetch with AbortSignal.timeout; the API key goes in
 * X-N8N-API-KEY; every answer is checked against its documented shape (TypeBox Value.Check) before
 * it is returned. Failures become AppErrors: 502 for an engine that is unreachable, slow, answers
 * non-2xx or garbage; 404 "Workflow not found" for an unknown workflow id.
 */
import type { TSchema, Static } from 'typebox';
import { Value } from 'typebox/value';
import { AppError, notFound } from '../../http/errors.ts';
import { EngineExecutionPage, EngineWorkflow, EngineWorkflowPage } from './workflow-engine.schemas.ts';

/** Largest engine answer read, in bytes; beyond it the answer counts as garbage. */
const MAX_BODY_BYTES = 10 * 1_048_576;

export interface EngineSettings {
  /** Base URL without a trailing slash, for example https://n8n.example.com. */
  url: string;
  apiKey: string;
  /** Whole-request time limit in milliseconds (connect, headers and body). */
  timeoutMs: number;
}

const badGateway = (message: string) => new AppError('bad_gateway', message);

async function readBounded(res: Response): Promise<string> {
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw badGateway('The workflow engine sent an unexpected response');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export class N8nClient {
  private readonly settings: EngineSettings;

  constructor(settings: EngineSettings) {
    this.settings = settings;
  }

  /**
   * GET {url}/api/v1{path}?query and check the JSON body against `schema`.
   * @param notFoundAs resource name for a 404 answer (404 "<name> not found"); otherwise 404 is 502
   */
  private async get<S extends TSchema>(path: string, query: Record<string, string | number | boolean | undefined>, schema: S, notFoundAs?: string): Promise<Static<S>> {
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
      if (err instanceof AppError) throw err;
      if (signal.aborted) throw badGateway('The workflow engine did not answer in time');
      throw badGateway('The workflow engine is unreachable');
    }
    if (status === 404 && notFoundAs) throw notFound(notFoundAs);
    if (status === 401 || status === 403) throw badGateway('The workflow engine rejected the API key');
    if (status < 200 || status > 299) throw badGateway(`The workflow engine answered with status ${status}`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw badGateway('The workflow engine sent an unexpected response');
    }
    if (!Value.Check(schema, body)) throw badGateway('The workflow engine sent an unexpected response');
    return body as Static<S>;
  }

  /** GET /api/v1/workflows: one page of workflows (active=true for only the active ones). */
  listWorkflows(q: { limit: number; cursor?: string; active?: boolean }) {
    return this.get('/workflows', { limit: q.limit, cursor: q.cursor, active: q.active }, EngineWorkflowPage);
  }

  /** GET /api/v1/workflows/{id}: one workflow; 404 "Workflow not found" when the engine has none. */
  getWorkflow(id: string) {
    return this.get(`/workflows/${encodeURIComponent(id)}`, {}, EngineWorkflow, 'Workflow');
  }

  /** GET /api/v1/executions: one page of executions, newest first, optionally of one workflow or status. */
  listExecutions(q: { limit: number; cursor?: string; workflowId?: string; status?: string }) {
    return this.get('/executions', { workflowId: q.workflowId, status: q.status, limit: q.limit, cursor: q.cursor, includeData: false }, EngineExecutionPage);
  }
}
