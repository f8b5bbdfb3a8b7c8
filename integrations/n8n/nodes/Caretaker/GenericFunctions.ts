/**
 * Requests to the Caretaker API shared by the Caretaker nodes: authentication through the
 * credential, a fresh CSRF token for each write (docs/security.md "CSRF"), Caretaker's error
 * envelope turned into n8n's NodeApiError, and limit/offset paging for "Return All".
 */
import {
  NodeApiError,
  type IDataObject,
  type IExecuteFunctions,
  type IHookFunctions,
  type IHttpRequestMethods,
  type IHttpRequestOptions,
  type ILoadOptionsFunctions,
  type JsonObject,
} from 'n8n-workflow';

/** The contexts that may call the API: an action's execute, a trigger's hooks, a list loader. */
export type CaretakerContext = IExecuteFunctions | IHookFunctions | ILoadOptionsFunctions;

/** Largest page the Caretaker list endpoints give (their `limit` maximum). */
export const PAGE_SIZE = 200;

/** The answer envelope of the Caretaker API (docs/api.md). */
export interface CaretakerAnswer {
  success: boolean;
  data?: unknown;
  count?: number;
  message?: string;
  error?: string;
}

/** The server's address from the credential, without a trailing slash. */
async function baseUrl(ctx: CaretakerContext): Promise<string> {
  const credentials = await ctx.getCredentials('caretakerApi');
  return String(credentials.baseUrl).replace(/\/+$/, '');
}

/** One request with the credential; the answer in full (status, body), whatever the status. */
async function send(ctx: CaretakerContext, options: IHttpRequestOptions): Promise<{ statusCode: number; body: CaretakerAnswer }> {
  const answer = (await ctx.helpers.httpRequestWithAuthentication.call(ctx, 'caretakerApi', {
    ...options,
    baseURL: await baseUrl(ctx),
    json: true,
    returnFullResponse: true,
    ignoreHttpStatusErrors: true,
  })) as { statusCode: number; body: CaretakerAnswer | string };
  const body = typeof answer.body === 'string' ? (safeJson(answer.body) ?? { success: false, error: answer.body }) : answer.body;
  return { statusCode: answer.statusCode, body };
}

function safeJson(text: string): CaretakerAnswer | undefined {
  try {
    return JSON.parse(text) as CaretakerAnswer;
  } catch {
    return undefined;
  }
}

/**
 * Calls the Caretaker API. A write (POST, PUT, DELETE) first reads a single-use CSRF token
 * (GET /api/security/csrf-token) and sends it as X-CSRF-Token.
 * @param path the API path, e.g. `/api/jobs/manage`
 * @returns the answer's envelope (`data`, `count`, `message`)
 * @throws NodeApiError with Caretaker's `error` text and the HTTP status on any non-2xx answer
 */
export async function caretakerRequest(
  this: CaretakerContext,
  method: IHttpRequestMethods,
  path: string,
  body?: IDataObject,
  qs?: IDataObject,
): Promise<CaretakerAnswer> {
  const headers: IDataObject = {};
  if (method !== 'GET') {
    const token = await send(this, { method: 'GET', url: '/api/security/csrf-token' });
    if (token.statusCode >= 300) throw apiError(this, token.statusCode, token.body);
    headers['X-CSRF-Token'] = (token.body.data as { token: string }).token;
  }
  const options: IHttpRequestOptions = { method, url: path, headers };
  if (body !== undefined) options.body = body;
  if (qs !== undefined && Object.keys(qs).length > 0) options.qs = qs;
  const answer = await send(this, options);
  if (answer.statusCode >= 300) throw apiError(this, answer.statusCode, answer.body);
  return answer.body;
}

/** Caretaker's error envelope as n8n's NodeApiError (message: the API's `error`). */
function apiError(ctx: CaretakerContext, statusCode: number, body: CaretakerAnswer): NodeApiError {
  const message = body.error ?? `Caretaker answered ${statusCode}`;
  return new NodeApiError(ctx.getNode(), body as unknown as JsonObject, { message, description: message, httpCode: String(statusCode) });
}

/**
 * A list endpoint's rows: every page (`limit` 200, `offset` stepping) up to the answer's `count`
 * when `returnAll`, else the first `limit` rows.
 * @param limit rows wanted when not returnAll (1 to 200 per n8n's Limit field)
 */
export async function caretakerList(this: CaretakerContext, path: string, qs: IDataObject, returnAll: boolean, limit: number): Promise<IDataObject[]> {
  if (!returnAll) {
    const answer = await caretakerRequest.call(this, 'GET', path, undefined, { ...qs, limit, offset: 0 });
    return (answer.data as IDataObject[]).slice(0, limit);
  }
  const rows: IDataObject[] = [];
  for (let offset = 0; ; offset += PAGE_SIZE) {
    const answer = await caretakerRequest.call(this, 'GET', path, undefined, { ...qs, limit: PAGE_SIZE, offset });
    const page = answer.data as IDataObject[];
    rows.push(...page);
    if (page.length < PAGE_SIZE || (answer.count !== undefined && rows.length >= answer.count)) return rows;
  }
}

/** The fields of a collection parameter without empty values (n8n keeps cleared fields as ''). */
export function cleanFields(fields: IDataObject): IDataObject {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== '' && v !== undefined && v !== null));
}
