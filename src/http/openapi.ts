/**
 * OpenAPI 3.1 document generated from the route schemas (@fastify/swagger) at
 * /api/openapi.json, with each operation's permission key as `x-permission` and in its
 * description, and the interactive reference (@fastify/swagger-ui) at /docs.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { docsPageHtml, docsPageOutline, docsPageScript } from './docs-page.ts';
import { finishDocument } from './openapi-contract.ts';
import { docsPageDocument } from './openapi-ui.ts';
import { operationIdFor } from './operation-ids.ts';

/** Tags of the document, in the order the docs page shows them. */
export const TAGS = [
  { name: 'auth', description: 'Log in and out, mobile tokens, CSRF tokens, password reset (spec 4.1, 5).' },
  { name: 'users', description: 'Accounts, sessions, passwords, invitations and appearance (spec 4.10, 4.14).' },
  { name: 'jobs', description: 'Jobs (work orders): create, list, edit, move through the lifecycle, assign, notes, documents and photos (spec 4.16).' },
  { name: 'calendar', description: 'Visits by day and the per-user iCalendar feed.' },
  { name: 'agents', description: 'Branch agents, branch sharing and SLA response-time rules (spec 4.7, 4.8, 4.11).' },
  { name: 'contractors', description: 'Contractors, trades, certificates, coverage and matching.' },
  { name: 'tenants', description: 'Tenants and property addresses (spec 4.9).' },
  { name: 'landlords', description: 'Landlords, their properties and spend limits, approvals by signed link (docs/landlords.md).' },
  { name: 'gdpr', description: 'Consents, subject-access reports and erasure.' },
  { name: 'administration', description: 'Roles, permissions, branches, rate limits and the activity log.' },
  { name: 'security', description: 'Security operations: file-integrity scan and the like.' },
  { name: 'system', description: 'Status, health, metrics and device tokens (spec 4.12, 4.17).' },
  { name: 'workflow automation', description: 'The connected n8n workflow engine (spec 4.15).' },
  { name: 'webhooks', description: 'Webhook endpoints, their signing secrets and deliveries (docs/webhooks.md).' },
  { name: 'sla', description: 'SLA clocks at risk or breached, compliance and the agency SLA settings (docs/sla.md).' },
  { name: 'dashboard', description: 'The dashboard figures of the caller (docs/insight.md).' },
  { name: 'analytics', description: 'Job analytics by period and group (docs/insight.md).' },
  { name: 'search', description: 'Global search across the records the caller may see (docs/insight.md).' },
  { name: 'reports', description: 'Report downloads as CSV or XLSX and report e-mail subscriptions (docs/insight.md).' },
  { name: 'weather', description: 'The weather forecast of a job visit (docs/insight.md).' },
  { name: 'messaging', description: 'Message templates, outgoing e-mail and SMS, and their delivery records (docs/messaging.md).' },
  { name: 'events', description: 'Live updates: Server-Sent Events of the job events the caller may see (docs/live-updates.md).' },
  { name: 'notices', description: 'Agency notices, who they are addressed to and who read them (docs/messaging.md).' },
  { name: 'pricing', description: 'Price list items, contractor rates and pricing settings (docs/money.md).' },
  { name: 'quotes', description: 'Quotes on jobs and their approval (docs/money.md).' },
  { name: 'invoices', description: 'Invoices, credit notes, payments and the Xero exports (docs/money.md).' },
];

const CSRF_HEADER = {
  type: 'string',
  description:
    'Single-use CSRF token from GET /api/security/csrf-token (spec 5.3). It may travel here or as `csrf_token` in the body; ' +
    'the docs page fills it in by itself before each write.',
};

const UPLOAD_FIELDS: Record<string, unknown> = {
  file: { type: 'string', format: 'binary', description: 'The file; its type is decided from the content.' },
};
const JOB_FILE_FIELDS: Record<string, unknown> = {
  ...UPLOAD_FIELDS,
  description: { type: 'string', maxLength: 500 },
  internal: { type: 'boolean', description: 'staff only' },
};
const IMPORT_FIELDS: Record<string, unknown> = {
  ...UPLOAD_FIELDS,
  entity: { type: 'string', enum: ['addresses', 'tenants', 'contractors', 'landlords'] },
  skip_bad_rows: { type: 'string', enum: ['true', 'false'], description: 'default false' },
};

/**
 * The fields of Mailgun's store-and-forward post of a raw MIME message (form or multipart; no file
 * part: the message travels as text in `body-mime`), src/modules/jobs/conversations/inbound.routes.ts.
 */
const MAILGUN_FIELDS = {
  type: 'object',
  properties: {
    'body-mime': { type: 'string', description: 'The whole message, raw MIME' },
    recipient: { type: 'string', description: 'The address(es) it was sent to, comma-separated' },
    sender: { type: 'string' },
    timestamp: { type: 'string', description: 'Unix time in seconds, signed' },
    token: { type: 'string', description: 'Random, signed; each timestamp and token is taken once' },
    signature: { type: 'string', description: 'HMAC-SHA256 of timestamp + token under the webhook signing key, hex' },
  },
  required: ['body-mime', 'timestamp', 'token', 'signature'],
};

/**
 * The partial updates whose services refuse a body without any field they change (400 "Invalid or
 * missing required parameter: body"): their document's body says `minProperties: 1`, so it is
 * required (src/http/openapi-contract.ts). test/contract/contract-walk.test.ts fails for a write
 * that refuses an empty body the document calls optional, so a new one is added here.
 */
const PARTIAL_UPDATES = new Set([
  'PUT /api/jobs/:uuid',
  'PUT /api/jobs/time-ranges/:id',
  'POST /api/sla/settings',
  'PUT /api/notices/:uuid',
  'PUT /api/pricing/items/:uuid',
  'PUT /api/invoices/:uuid',
  'PUT /api/compliance/types/:uuid',
  'PUT /api/compliance/schedules/:uuid',
  'PUT /api/compliance/items/:uuid/certificates/:certificate_uuid',
  'PUT /api/compliance/properties/:uuid/profile',
  'PUT /api/hazards/settings',
  'PUT /api/reporting/settings',
  'PUT /api/agencies/current',
  'PUT /api/agencies/:uuid',
]);

/** The upload operations (multipart/form-data, one file in field `file`). */
const UPLOAD_PATHS = /\/(documents|photos|banner|document)$/;

type JsonSchema = { type?: string; properties?: Record<string, { default?: unknown }>; required?: string[] } & Record<string, unknown>;

/** The querystring schema with every parameter that has a default marked optional (the server fills it in). */
function defaultsOptional(query: JsonSchema | undefined): JsonSchema | undefined {
  if (!query?.properties || !query.required) return query;
  const required = query.required.filter((name) => query.properties?.[name]?.default === undefined);
  return { ...query, required };
}

const ACCESS_TEXT: Record<string, string> = {
  public: 'No authentication.',
  authenticated: 'Any valid bearer token or session.',
  bearer: 'A valid bearer token in the Authorization header.',
};

/** Registers the OpenAPI generator; call before any route is added. */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Caretaker API',
        version,
        license: { name: 'Proprietary', identifier: 'LicenseRef-Caretaker-Proprietary' },
        description:
          'Property maintenance and job management for letting agencies. Every response uses the envelope ' +
          '{ success, data, count, message } or { success: false, error }. Every POST, PUT and DELETE that needs a login needs a CSRF token ' +
          'from GET /api/security/csrf-token (body csrf_token or header X-CSRF-Token); the public writes need none ' +
          '(login, session, mobile-auth, password reset and its confirmation, invitation acceptance, signed-link posts, provider callbacks).',
      },
      servers: [{ url: '/', description: 'The server that serves this document' }],
      tags: TAGS,
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: '64-character token from login or mobile-auth' },
          session: { type: 'apiKey', in: 'cookie', name: 'caretaker_session' },
        },
      },
    },
    transform: ({ schema, url, route }) => {
      const config = route.config as { permission?: string; csrf?: boolean } | undefined;
      const permission = config?.permission ?? 'public';
      const access = ACCESS_TEXT[permission] ?? `Permission key \`${permission}\`.`;
      const method = (Array.isArray(route.method) ? route.method[0] : route.method) as string;
      const s = { ...(schema as Record<string, unknown>) };
      s.operationId = operationIdFor(method, url.replace(/:(\w+)/g, '{$1}'));
      s['x-permission'] = permission;
      s.description = [s.description, `**Access:** ${access}`].filter(Boolean).join('\n\n');
      s.security = permission === 'public' ? [] : permission === 'bearer' ? [{ bearer: [] }] : [{ bearer: [] }, { session: [] }];
      if (s.querystring) s.querystring = defaultsOptional(s.querystring as JsonSchema);
      const write = method === 'POST' || method === 'PUT' || method === 'DELETE';
      if (write && permission !== 'public' && config?.csrf !== false) {
        const headers = (s.headers as JsonSchema | undefined) ?? { type: 'object', properties: {} };
        s.headers = { ...headers, properties: { ...headers.properties, 'x-csrf-token': CSRF_HEADER } };
      }
      if (method === 'POST' && UPLOAD_PATHS.test(url)) s.consumes = ['multipart/form-data'];
      const consumes = s.consumes as string[] | undefined;
      if (url === '/api/inbound/mailgun' && !s.body) s.body = MAILGUN_FIELDS;
      if (PARTIAL_UPDATES.has(`${method} ${url}`) && s.body) {
        const body = s.body as JsonSchema;
        s.body = { ...body, minProperties: 1, description: [body.description, 'At least one field to change.'].filter(Boolean).join(' ') };
      }
      if (consumes?.includes('multipart/form-data') && !s.body) {
        const fields = url === '/api/imports' ? IMPORT_FIELDS : /\/(documents|photos)$/.test(url) ? JOB_FILE_FIELDS : UPLOAD_FIELDS;
        s.body = { type: 'object', properties: fields, required: url === '/api/imports' ? ['file', 'entity'] : ['file'] };
      }
      return { schema: s as never, url };
    },
    transformObject: (document) => finishDocument('openapiObject' in document ? document.openapiObject : document.swaggerObject),
  });
}

/**
 * The docs page's request interceptor (runs in the browser, serialised into Swagger UI's
 * initializer): before every write that needs one, it fetches a fresh single-use CSRF token with
 * the page's session cookie or the bearer token the user authorised, and sends it in X-CSRF-Token,
 * so "Try it out" works for every operation after one login (spec 5.3).
 */
function requestInterceptor(req: { url: string; method?: string; headers: Record<string, string> }) {
  const method = (req.method ?? 'GET').toUpperCase();
  const free = /\/api\/(auth\/login|security\/mobile-auth|auth\/password-reset|users\/invitations\/accept)(\/confirm)?$/;
  if (!['POST', 'PUT', 'DELETE'].includes(method) || (method === 'POST' && free.test(new URL(req.url, (globalThis as unknown as { location: { href: string } }).location.href).pathname))) return req;
  const headers: Record<string, string> = {};
  const auth = req.headers.Authorization ?? req.headers.authorization;
  if (auth) headers.Authorization = auth;
  return fetch('/api/security/csrf-token', { headers, credentials: 'same-origin' })
    .then((res) => (res.ok ? res.json() : null))
    .then((body: unknown) => {
      const token = (body as { data?: { token?: string } } | null)?.data?.token;
      if (token) req.headers['X-CSRF-Token'] = token;
      return req;
    })
    .catch(() => req);
}

/** The document as served: JSON text, gzip and brotli copies, and an ETag; built once after ready. */
interface ServedDocument {
  json: Buffer;
  gzip: Buffer;
  brotli: Buffer;
  etag: string;
}

/**
 * Served copies by document text, for the process: every app built in one process (a test worker
 * builds dozens) serves the same document, so it is compressed once.
 */
const servedByText = new Map<string, ServedDocument>();

function serveDocument(document: unknown): ServedDocument {
  const text = JSON.stringify(document);
  const known = servedByText.get(text);
  if (known) return known;
  const served = compressDocument(Buffer.from(text));
  if (servedByText.size >= 4) servedByText.clear();
  servedByText.set(text, served);
  return served;
}

function compressDocument(json: Buffer): ServedDocument {
  return {
    json,
    gzip: gzipSync(json, { level: 9 }),
    brotli: brotliCompressSync(json, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 9 } }),
    etag: `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`,
  };
}

const docWarmers = new WeakMap<FastifyInstance, () => void>();

/**
 * Builds and compresses the served OpenAPI documents (/api/openapi.json and the docs page's
 * /docs/json) of an app now, instead of on the first request for them (tests that time the page
 * call it; `serve` builds them on first use). No-op for an app without the docs routes.
 */
export function warmDocs(app: FastifyInstance): void {
  docWarmers.get(app)?.();
}

/**
 * Registers GET /api/openapi.json (compressed with brotli or gzip when the client accepts it,
 * ETag and 304, cached for a minute then revalidated) and the /docs page, all public.
 */
export async function registerDocsRoutes(app: FastifyInstance): Promise<void> {
  let api: ServedDocument | undefined;
  let page: ServedDocument | undefined;
  const send = (served: ServedDocument, request: FastifyRequest, reply: FastifyReply) => {
    void reply.header('etag', served.etag).header('cache-control', 'public, max-age=60, must-revalidate').header('vary', 'accept-encoding');
    if (request.headers['if-none-match'] === served.etag) return reply.status(304).send();
    void reply.type('application/json; charset=utf-8');
    const accepted = String(request.headers['accept-encoding'] ?? '');
    if (/\bbr\b/.test(accepted)) return reply.header('content-encoding', 'br').send(served.brotli);
    if (/\bgzip\b/.test(accepted)) return reply.header('content-encoding', 'gzip').send(served.gzip);
    return reply.send(served.json);
  };
  // Built and compressed on first use, or ahead of it by warmDocs (which `serve` calls right after
  // listening, so the first visitor does not wait): not in onReady, which every test app passes
  // through (about half a second of CPU each for the two documents).
  let html: string | undefined;
  const pageHtml = () => docsPageHtml('/docs', 'Caretaker API reference', docsPageOutline(app.swagger() as never));
  docWarmers.set(app, () => {
    api ??= serveDocument(app.swagger());
    page ??= serveDocument(docsPageDocument(app.swagger()));
    html ??= pageHtml();
  });
  await app.register(async (docs) => {
    docs.addHook('onRoute', (route) => {
      route.config = { ...(route.config as object), permission: 'public' };
    });
    docs.get('/api/openapi.json', { schema: { hide: true } }, async (request, reply) => send((api ??= serveDocument(app.swagger())), request, reply));
    const uiConfig = {
      // Tags start collapsed: drawing all 200 operations at once took most of the page's first
      // second(s); a tag opens on click, and a deep link (#/tag/operationId) opens its operation.
      docExpansion: 'none',
      // No "Schemas" section: each operation shows its own.
      defaultModelsExpandDepth: -1,
      filter: true,
      deepLinking: true,
      persistAuthorization: true,
      requestInterceptor,
    };
    const script = docsPageScript('/docs', uiConfig);
    await docs.register(swaggerUi, {
      routePrefix: '/docs',
      // The plugin serves Swagger UI's files; the page, its start-up script and the document are
      // ours (src/http/docs-page.ts). /docs/json answers with the OpenAPI 3.0 equivalent of
      // /api/openapi.json, repeated schemas shared (src/http/openapi-ui.ts: Swagger UI draws it
      // several times faster than the 3.1 document), compressed and ETag-cached likewise.
      uiHooks: {
        onRequest: (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
          const url = request.routeOptions.url;
          if (url === '/docs/json') void send((page ??= serveDocument(docsPageDocument(app.swagger()))), request, reply);
          else if (url === '/docs' || url === '/docs/') void reply.type('text/html; charset=utf-8').send((html ??= pageHtml()));
          else if (url === '/docs/static/swagger-initializer.js') void reply.type('application/javascript; charset=utf-8').send(script);
          else done();
        },
      },
    });
  });
}
