/**
 * docs/walkthroughs.http, the README's walkthroughs as an HTTP collection: every request's method
 * and path is an operation of the OpenAPI document (clients/typescript/openapi.json, kept current
 * by `npm run openapi:check`), and the whole collection, replayed top to bottom against the app
 * with the demo data (REST Client variables resolved as the editor would), succeeds.
 *
 * The contract walk (docs/api.md, "OpenAPI document"): the replay and a broad walk over every
 * operation of the app's own document, as every demo role and anonymously, go through a
 * validation proxy (test/helpers/openapi-validator.ts, in process). It fails on any response the
 * document does not describe (status, media type, JSON body) and on any request the document
 * refuses (security, parameters, body) that the server accepts.
 */
import { readFileSync } from 'node:fs';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoIfEmpty } from '../../src/seed/demo/index.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { OpenApiValidator, type SentRequest } from '../helpers/openapi-validator.ts';
import { contractWalk } from '../helpers/contract-walk.ts';

interface HttpRequest {
  name: string | undefined;
  method: string;
  target: string;
  headers: Record<string, string>;
  body: string;
}

const ROOT = new URL('../../', import.meta.url);
const text = readFileSync(new URL('docs/walkthroughs.http', ROOT), 'utf8');
const doc = JSON.parse(readFileSync(new URL('clients/typescript/openapi.json', ROOT), 'utf8')) as { paths: Record<string, Record<string, unknown>> };

/** File variables (`@name = value`) and the requests, split on `###`. */
function parse(source: string): { vars: Record<string, string>; requests: HttpRequest[] } {
  const vars: Record<string, string> = {};
  const requests: HttpRequest[] = [];
  for (const block of source.split(/^###.*$/m)) {
    let name: string | undefined;
    const lines = block.split('\n');
    let i = 0;
    for (; i < lines.length; i++) {
      const line = lines[i]!.trim();
      const named = /^#\s*@name\s+(\w+)/.exec(line);
      if (named) name = named[1];
      const fileVar = /^@(\w+)\s*=\s*(.*)$/.exec(line);
      if (fileVar) vars[fileVar[1]!] = fileVar[2]!.trim();
      if (line === '' || line.startsWith('#') || fileVar) continue;
      break;
    }
    if (i >= lines.length) continue;
    const [method, target] = lines[i]!.trim().split(/\s+/);
    const headers: Record<string, string> = {};
    for (i += 1; i < lines.length && lines[i]!.trim() !== ''; i++) {
      const at = lines[i]!.indexOf(':');
      headers[lines[i]!.slice(0, at).trim().toLowerCase()] = lines[i]!.slice(at + 1).trim();
    }
    requests.push({ name, method: method!, target: target!, headers, body: lines.slice(i + 1).join('\n').trim() });
  }
  return { vars, requests };
}

const { vars, requests } = parse(text);

/** The document's path template matching a concrete path, `{{...}}` segments matching any `{param}`. */
function operationOf(method: string, target: string): string | undefined {
  const segments = target.replace('{{base}}', '').split('?')[0]!.split('/');
  return Object.keys(doc.paths).find((template) => {
    const parts = template.split('/');
    if (parts.length !== segments.length || !(method.toLowerCase() in doc.paths[template]!)) return false;
    return parts.every((p, k) => (p.startsWith('{') ? segments[k] !== '' : p === segments[k]));
  });
}

describe('docs/walkthroughs.http', () => {
  it('holds the three walkthroughs', () => {
    expect(requests.length).toBeGreaterThanOrEqual(30);
    for (const title of ['1. Log in', '2. Follow one job', '3. Onboard']) expect(text).toContain(title);
  });

  it('every request is an operation of the OpenAPI document', () => {
    const missing = requests.filter((r) => !operationOf(r.method, r.target)).map((r) => `${r.method} ${r.target}`);
    expect(missing).toEqual([]);
  });

  describe('replayed against the app with the demo data, through the validation proxy', () => {
    let t: TestApp;
    let validator: OpenApiValidator;
    /** Responses the document does not describe, and requests it refuses that the server accepted. */
    const violations: string[] = [];
    const stricter: string[] = [];
    let sent = 0;
    /** Sends one request through the proxy: the app answers, the validator judges both ways. */
    const send = async (request: SentRequest) => {
      const options: InjectOptions = { method: request.method as InjectOptions['method'], url: request.url, headers: request.headers as Record<string, string>, ...(request.body !== undefined ? { payload: request.body } : {}) };
      const res = STREAMS.has(request.url.split('?')[0]!) ? await readStream(options) : await t.app.inject(options);
      sent += 1;
      const label = `${request.method} ${request.url.split('?')[0]} -> ${res.statusCode}`;
      for (const problem of validator.checkResponse(request, res)) violations.push(`${label}: ${problem}`);
      const refused = validator.checkRequest(request);
      if (refused.length > 0 && res.statusCode < 300) stricter.push(`${label}: the document refuses (${refused.join('; ')})`);
      return res;
    };
    /**
     * Paths answering text/event-stream (GET /api/events/stream): the answer never ends by itself,
     * and an injected request sees nothing of a hijacked reply until it ends, so these go over a
     * real socket (the app listening on a free port) and are read until the stream says `ready`
     * (or ends, for a refusal), then let go. A 200 that never says `ready` within 5 s is a violation.
     */
    const STREAMS = new Set<string>();
    let listening: string | undefined;
    const readStream = async (options: InjectOptions): Promise<LightMyRequestResponse> => {
      listening ??= await t.app.listen({ port: 0, host: '127.0.0.1' });
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), 5_000);
      const res = await fetch(`${listening}${String(options.url)}`, { method: String(options.method), headers: options.headers as Record<string, string>, signal: controller.signal });
      let body = '';
      try {
        const decoder = new TextDecoder();
        for await (const chunk of res.body ?? []) {
          body += decoder.decode(chunk, { stream: true });
          if (body.includes('"type":"ready"')) break;
        }
      } catch (err) {
        if (!controller.signal.aborted) throw err;
      } finally {
        clearTimeout(timer);
        controller.abort();
      }
      if (res.status === 200 && !body.includes('"type":"ready"')) violations.push(`${String(options.method)} ${String(options.url)} -> 200: the stream did not say ready within 5 s`);
      const rawPayload = Buffer.from(body, 'utf8');
      return { statusCode: res.status, headers: Object.fromEntries(res.headers), rawPayload, body, payload: body, json: () => JSON.parse(body) } as unknown as LightMyRequestResponse;
    };
    beforeAll(async () => {
      t = await buildTestApp();
      await loadDemoIfEmpty(t.db, t.config, t.clock.now());
      const paths = (t.app.swagger() as { paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, unknown> }> }>> }).paths;
      for (const [path, ops] of Object.entries(paths)) if (ops.get?.responses?.['200']?.content?.['text/event-stream']) STREAMS.add(path);
      validator = new OpenApiValidator(t.app.swagger() as never);
    });
    afterAll(async () => t?.close());

    it('every request succeeds', async () => {
      const responses: Record<string, unknown> = {};
      const at = (value: unknown, path: string): unknown =>
        path.split(/\.|\[(\d+)\]/).filter((p) => p !== undefined && p !== '').reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], value);
      let counter = 0;
      const resolve = (s: string): string =>
        s.replace(/\{\{\s*([^}]+?)\s*\}\}/g, (_m, expr: string) => {
          if (expr in vars) return resolve(vars[expr]!);
          if (expr === '$guid') return crypto.randomUUID();
          if (expr === '$timestamp') return String(Math.floor(t.clock.now().getTime() / 1000) + counter);
          if (expr.startsWith('$randomInt')) return String(100 + (counter % 800));
          const date = /^\$datetime '(YYYY-MM-DD)' (-?\d+) d$/.exec(expr);
          if (date) return new Date(t.clock.now().getTime() + Number(date[2]) * 86_400_000).toISOString().slice(0, 10);
          const ref = /^(\w+)\.response\.body\.(.+)$/.exec(expr);
          if (ref) {
            const value = at(responses[ref[1]!], ref[2]!);
            if (value === undefined) throw new Error(`{{${expr}}} is undefined`);
            return String(value);
          }
          throw new Error(`unknown variable {{${expr}}}`);
        });
      for (const r of requests) {
        counter += 1;
        const url = resolve(r.target).replace(/^http:\/\/[^/]+/, '');
        const headers = Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, resolve(v)]));
        const res = await send({ method: r.method, url, headers, ...(r.body ? { body: resolve(r.body) } : {}) });
        expect(res.statusCode, `${r.method} ${url}: ${res.body}`).toBeLessThan(300);
        if (r.name) responses[r.name] = res.json();
      }
      expect(violations).toEqual([]);
      expect(stricter).toEqual([]);
    });

    it('the proxy itself refuses what the document does not describe', () => {
      const request = { method: 'GET', url: '/api/invoices/00000000-0000-4000-8000-000000000000/pdf', headers: {} };
      const answer = (statusCode: number, type: string, body: string) => ({ statusCode, headers: { 'content-type': type }, rawPayload: Buffer.from(body) });
      expect(validator.checkResponse(request, answer(200, 'application/pdf', '%PDF-1.7'))).toEqual([]);
      expect(validator.checkResponse(request, answer(200, 'application/json', '{}'))[0]).toMatch(/media type application\/json undocumented/);
      expect(validator.checkResponse(request, answer(418, 'application/json', '{}'))).toEqual(['status 418 undocumented']);
      expect(validator.checkResponse(request, answer(404, 'application/json', '{"success":true}'))[0]).toMatch(/body/);
      // A redirect documents no body: one sent is a departure.
      const redirect = { method: 'GET', url: '/api/auth/sso/northwind/start' };
      expect(validator.checkResponse(redirect, answer(302, 'text/html', '<p>Moved</p>'))).toEqual(['status 302 documents no body, but 12 bytes of text/html were sent']);
      expect(validator.checkResponse(redirect, answer(302, '', ''))).toEqual([]);
      expect(validator.checkRequest(request)).toEqual(['security']);
      expect(validator.checkRequest({ method: 'POST', url: '/api/jobs/manage', headers: { authorization: 'Bearer x', 'content-type': 'application/json' }, body: '{"title":"Leak"}' })[0]).toMatch(/priority/);
    });

    it('a walk over every operation and role: 0 response violations, 0 requests the document refuses but the server accepts', async () => {
      const started = performance.now();
      const summary = await contractWalk(t, validator, send);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(`contract walk: ${sent} requests, ${summary.operations} of ${validator.operations.length} operations, ${summary.answered2xx} operations answered 2xx at least once, ${seconds} s`);
      expect(summary.operations).toBe(validator.operations.length);
      expect(violations).toEqual([]);
      expect(stricter).toEqual([]);
      // Thousands of requests over every operation: on a 2-core CI machine running other files
      // beside it the walk has taken over 120 s (the suite's default limit).
    }, 300_000);
  });
});
