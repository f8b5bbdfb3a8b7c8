/**
 * Secrets never in logs (docs/security.md, "Secrets never in logs"): every credential-bearing
 * parameter of every operation in the OpenAPI document (clients/typescript/openapi.json), and
 * every link the service e-mails (`<public>/visit?token=`, `/survey?token=`, ...: found in the
 * source), is requested with a recognisable value; no log line may contain it, and the
 * "incoming request" line shows `****` in its place. A parameter is credential-bearing when its
 * name says so (token, key, secret, signature, password); each must be on the one list of
 * src/http/log-masking.ts.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskUrl, SECRET_PATH_PARAMETERS, SECRET_QUERY_PARAMETERS } from '../../src/http/log-masking.ts';
import { REDACT } from '../../src/main/app.ts';
import { createLogger } from '../../src/main/startup.ts';
import { buildTestApp, logLines, type TestApp } from '../helpers/app.ts';

const ROOT = path.join(import.meta.dirname, '../..');
const CREDENTIAL = /token|key|secret|signature|password/i;

interface Parameter { name: string; in: string; schema?: { type?: string; format?: string } }
interface Probe { method: string; url: string; secret: string; what: string }

/** One probe per credential-bearing parameter of the document's operations. */
async function documentProbes(): Promise<Probe[]> {
  const doc = JSON.parse(await readFile(path.join(ROOT, 'clients/typescript/openapi.json'), 'utf8')) as { paths: Record<string, Record<string, { parameters?: Parameter[] }>> };
  const probes: Probe[] = [];
  for (const [route, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const params = op.parameters ?? [];
      for (const secretParam of params.filter((p) => (p.in === 'path' || p.in === 'query') && CREDENTIAL.test(p.name))) {
        const secret = `Zq${probes.length}x${'7'.repeat(40)}Sek`;
        const pathPart = route.replace(/\{([^}]+)\}/g, (_m, name: string) => {
          if (name === secretParam.name && secretParam.in === 'path') return secret;
          const p = params.find((x) => x.name === name);
          return p?.schema?.type === 'integer' ? '1' : '3f1c2a9e-8d4b-4c6a-9e2f-0b7d5a1c3e8f';
        });
        const query = secretParam.in === 'query' ? `?${secretParam.name}=${secret}&page=1` : '';
        probes.push({ method: method.toUpperCase(), url: pathPart + query, secret, what: `${method.toUpperCase()} ${route} (${secretParam.in} ${secretParam.name})` });
      }
    }
  }
  return probes;
}

/** Every `<public>/<page>?<name>=` link the source builds for an e-mail. */
async function emailedLinks(): Promise<{ page: string; name: string }[]> {
  const found = new Map<string, { page: string; name: string }>();
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.name.endsWith('.ts')) {
        for (const m of (await readFile(full, 'utf8')).matchAll(/[pP]ublicUrl\}\/([a-z-]+)\?([a-z_]+)=/g)) found.set(`${m[1]}?${m[2]}`, { page: m[1]!, name: m[2]! });
      }
    }
  };
  await walk(path.join(ROOT, 'src'));
  return [...found.values()];
}

describe('secrets never in logs', () => {
  const { lines, stream } = logLines();
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({}, { loggerInstance: createLogger({ logLevel: 'info' }, REDACT, stream) });
  });
  afterAll(async () => t?.close());

  const check = async (probe: Probe) => {
    const before = lines.length;
    await t.app.inject({ method: probe.method as 'GET', url: probe.url, headers: { accept: 'application/json' } });
    const written = lines.slice(before);
    const leaked = written.filter((l) => JSON.stringify(l).includes(probe.secret));
    expect(leaked, `${probe.what} wrote its credential to the log`).toEqual([]);
    const incoming = written.find((l) => l.msg === 'incoming request') as { req?: { url?: string } } | undefined;
    expect(incoming?.req?.url, probe.what).toContain('****');
  };

  it('every credential-bearing parameter of the document is on the one list', async () => {
    const probes = await documentProbes();
    // The walk finds the link routes and the calendar feed, so it is not walking an empty set.
    expect(probes.map((p) => p.what)).toEqual(expect.arrayContaining(['GET /api/surveys/link/{token} (path token)', 'GET /api/visits/link/{token} (path token)', 'GET /api/calendar/feed.ics (query key)']));
    const doc = JSON.parse(await readFile(path.join(ROOT, 'clients/typescript/openapi.json'), 'utf8')) as { paths: Record<string, Record<string, { parameters?: Parameter[] }>> };
    for (const ops of Object.values(doc.paths)) {
      for (const op of Object.values(ops)) {
        for (const p of op.parameters ?? []) {
          if (p.in === 'path' && CREDENTIAL.test(p.name)) expect(SECRET_PATH_PARAMETERS).toContain(p.name);
          if (p.in === 'query' && CREDENTIAL.test(p.name)) expect(SECRET_QUERY_PARAMETERS).toContain(p.name);
        }
      }
    }
  });

  it('walks every operation of the document: no credential in any log line', async () => {
    for (const probe of await documentProbes()) await check(probe);
  });

  it('the e-mailed links (/visit?token=, /survey?token=, invitations, password resets) are masked', async () => {
    const links = await emailedLinks();
    expect(links.map((l) => l.page)).toEqual(expect.arrayContaining(['visit', 'survey', 'accept-invitation', 'reset-password']));
    for (const [i, link] of links.entries()) {
      expect(SECRET_QUERY_PARAMETERS).toContain(link.name);
      const secret = `Yk${i}w${'3'.repeat(40)}Lnk`;
      await check({ method: 'GET', url: `/${link.page}?${link.name}=${secret}`, secret, what: `/${link.page}?${link.name}=` });
    }
  });

  it('maskUrl: every value of a listed parameter, wherever it stands, and nothing else', () => {
    expect(maskUrl('/survey?token=abc&x=1')).toBe('/survey?token=****&x=1');
    expect(maskUrl('/visit?x=1&TOKEN=abc&token=def#frag')).toBe('/visit?x=1&TOKEN=****&token=****#frag');
    expect(maskUrl('/api/addresses?postcode=LS6&sort_key=x')).toBe('/api/addresses?postcode=LS6&sort_key=x');
    expect(maskUrl('/api/surveys/link/abc/extra', '/api/surveys/link/:token/extra')).toBe('/api/surveys/link/****/extra');
    expect(maskUrl('/api/unknown/link/abc')).toBe('/api/unknown/link/****');
  });
});
