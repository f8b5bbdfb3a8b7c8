/**
 * docs/walkthroughs.http, the README's walkthroughs as an HTTP collection: every request's method
 * and path is an operation of the OpenAPI document (clients/typescript/openapi.json, kept current
 * by `npm run openapi:check`), and the whole collection, replayed top to bottom against the app
 * with the demo data (REST Client variables resolved as the editor would), succeeds.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoIfEmpty } from '../../src/seed/demo/index.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

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

  describe('replayed against the app with the demo data', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp();
      await loadDemoIfEmpty(t.db, t.config, t.clock.now());
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
        const res = await t.app.inject({ method: r.method as 'GET', url, headers, ...(r.body ? { payload: resolve(r.body) } : {}) });
        expect(res.statusCode, `${r.method} ${url}: ${res.body}`).toBeLessThan(300);
        if (r.name) responses[r.name] = res.json();
      }
    });
  });
});
