/**
 * A small, honest stand-in for the parts of n8n that run a node (n8n-core's execute and hook
 * contexts), for the n8n node package's tests (integrations/n8n): parameters per item, the
 * credential applied as the credential type declares it (its `authenticate` headers), and
 * n8n's httpRequest helper implemented with fetch (baseURL, qs, JSON body, returnFullResponse,
 * ignoreHttpStatusErrors, as n8n's options mean them). The trigger's webhook runs behind a real
 * local HTTP server, with the raw body n8n keeps on its request (`rawBody`).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  ICredentialDataDecryptedObject,
  IDataObject,
  IExecuteFunctions,
  IHookFunctions,
  IHttpRequestOptions,
  INode,
  INodeExecutionData,
  INodeType,
  IWebhookFunctions,
  IWebhookResponseData,
} from 'n8n-workflow';
import { CaretakerApi } from '../../integrations/n8n/credentials/CaretakerApi.credentials.ts';

/** Every request the harness sent, in order (method, path with query, status). */
export type Sent = Array<{ method: string; url: string; status: number }>;

/** n8n's httpRequest with fetch. */
export async function httpRequest(options: IHttpRequestOptions, sent?: Sent): Promise<unknown> {
  const url = new URL(`${options.baseURL ?? ''}${options.url}`);
  for (const [k, v] of Object.entries((options.qs ?? {}) as IDataObject)) if (v !== undefined) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { accept: 'application/json', ...(options.headers as Record<string, string>) };
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(url, { method: options.method ?? 'GET', headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  const parsed = options.json && text ? (JSON.parse(text) as unknown) : text;
  sent?.push({ method: options.method ?? 'GET', url: `${url.pathname}${url.search}`, status: res.status });
  if (res.status >= 400 && !options.ignoreHttpStatusErrors) throw Object.assign(new Error(`Request failed with status code ${res.status}`), { httpCode: String(res.status), response: { status: res.status, data: parsed } });
  return options.returnFullResponse ? { statusCode: res.status, headers: Object.fromEntries(res.headers), body: parsed } : parsed;
}

/** The credential's `authenticate` headers, with `{{$credentials.x}}` replaced by its values. */
function authenticated(credentials: ICredentialDataDecryptedObject, options: IHttpRequestOptions): IHttpRequestOptions {
  const declared = new CaretakerApi().authenticate.properties.headers ?? {};
  const headers: IDataObject = { ...(options.headers ?? {}) };
  for (const [name, template] of Object.entries(declared)) {
    headers[name] = String(template)
      .replace(/^=/, '')
      .replace(/\{\{\s*\$credentials\.(\w+)\s*\}\}/g, (_m, key: string) => String(credentials[key]));
  }
  return { ...options, headers };
}

export interface Harness {
  credentials: { baseUrl: string; apiToken: string };
  sent: Sent;
}

function nodeOf(name: string, parameters: IDataObject): INode {
  return { id: 'n1', name, type: `n8n-nodes-caretaker.${name}`, typeVersion: 1, position: [0, 0], parameters: parameters as INode['parameters'] };
}

/** The helpers n8n gives every context that makes requests. */
function requestHelpers(h: Harness) {
  return {
    httpRequest: (options: IHttpRequestOptions) => httpRequest(options, h.sent),
    httpRequestWithAuthentication: (type: string, options: IHttpRequestOptions) => {
      if (type !== 'caretakerApi') throw new Error(`unknown credential type ${type}`);
      return httpRequest(authenticated(h.credentials, options), h.sent);
    },
    returnJsonArray: (rows: IDataObject | IDataObject[]) => (Array.isArray(rows) ? rows : [rows]).map((json) => ({ json })),
    constructExecutionMetaData: (items: INodeExecutionData[], { itemData }: { itemData: { item: number } }) => items.map((item) => ({ ...item, pairedItem: itemData })),
  };
}

/**
 * Runs a node's execute() as n8n does for one run of the node.
 * @param parameters the node's parameters; one object for every item, or one per item
 * @returns the node's output (first output's items)
 */
export async function execute(
  h: Harness,
  node: INodeType,
  parameters: IDataObject | IDataObject[],
  options: { items?: number; continueOnFail?: boolean } = {},
): Promise<INodeExecutionData[]> {
  const perItem = Array.isArray(parameters) ? parameters : Array.from({ length: options.items ?? 1 }, () => parameters);
  const ctx = {
    getInputData: () => perItem.map(() => ({ json: {} })),
    getNodeParameter: (name: string, i: number, fallback?: unknown) => {
      const value = perItem[i]![name];
      if (value !== undefined) return value;
      if (fallback !== undefined) return fallback;
      throw new Error(`Could not get parameter "${name}"`);
    },
    getCredentials: async () => h.credentials,
    getNode: () => nodeOf('caretaker', perItem[0]!),
    continueOnFail: () => options.continueOnFail === true,
    helpers: requestHelpers(h),
  } as unknown as IExecuteFunctions;
  const out = (await node.execute!.call(ctx)) as INodeExecutionData[][];
  return out[0]!;
}

/** A trigger node activated behind a local HTTP server, as n8n serves a webhook node. */
export interface ActiveTrigger {
  url: string;
  staticData: IDataObject;
  /** Items the workflow was started with, one array per accepted delivery. */
  runs: INodeExecutionData[][];
  /** Answers the server gave (status and body), one per delivery. */
  answers: Array<{ status: number; body: string }>;
  hooks(): IHookFunctions;
  close(): Promise<void>;
}

/**
 * Serves a trigger node's webhook on 127.0.0.1 (every POST goes to its webhook(), with the raw
 * body on the request as n8n keeps it) and gives the hook context its activation runs in.
 */
export async function serveTrigger(h: Harness, node: INodeType, parameters: IDataObject): Promise<ActiveTrigger> {
  const staticData: IDataObject = {};
  const runs: INodeExecutionData[][] = [];
  const answers: Array<{ status: number; body: string }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      let status = 200;
      let answer = '{"message":"Workflow was started"}';
      const response = {
        status(code: number) {
          status = code;
          return response;
        },
        json(body: unknown) {
          answer = JSON.stringify(body);
          return response;
        },
      };
      const ctx = {
        getWorkflowStaticData: () => staticData,
        getHeaderData: () => req.headers,
        getRequestObject: () => Object.assign(req, { rawBody }),
        getBodyData: () => JSON.parse(rawBody.toString('utf8')) as IDataObject,
        getResponseObject: () => response,
        getNode: () => nodeOf('caretakerTrigger', parameters),
        helpers: requestHelpers(h),
      } as unknown as IWebhookFunctions;
      node.webhook!.call(ctx).then(
        (result: IWebhookResponseData) => {
          if (result.workflowData) runs.push(result.workflowData[0]!);
          answers.push({ status, body: answer });
          res.writeHead(status, { 'content-type': 'application/json' }).end(answer);
        },
        (err: Error) => {
          answers.push({ status: 500, body: err.message });
          res.writeHead(500).end(err.message);
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook/caretaker-trigger`;
  return {
    url,
    staticData,
    runs,
    answers,
    hooks: () =>
      ({
        getWorkflowStaticData: () => staticData,
        getNodeWebhookUrl: () => url,
        getNodeParameter: (name: string) => parameters[name],
        getWorkflow: () => ({ id: 'w1', name: 'SLA breaches to Teams', active: true }),
        getCredentials: async () => h.credentials,
        getNode: () => nodeOf('caretakerTrigger', parameters),
        helpers: requestHelpers(h),
      }) as unknown as IHookFunctions,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
