/**
 * docs/security.md promise 23 (helmet): security headers and the content-security policy on every
 * response, refusals included, and the /docs page and its assets still load under the policy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

describe('security headers (helmet) and the /docs page', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  const expectHeaders = (headers: Record<string, unknown>) => {
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['cross-origin-opener-policy']).toBe('same-origin');
  };

  it('sets the headers on success, on a 401 and on an unknown route', async () => {
    expectHeaders((await t.app.inject({ method: 'GET', url: '/livez' })).headers);
    expectHeaders((await t.app.inject({ method: 'GET', url: '/api/jobs/manage' })).headers);
    expectHeaders((await t.app.inject({ method: 'GET', url: '/api/nothing-here' })).headers);
  });

  it('serves /docs and every script and stylesheet it references, same-origin, under the policy', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expectHeaders(page.headers);
    expect(page.body).not.toMatch(/<script>(?!\s*<\/script>)|<script(?![^>]*\bsrc=)[^>]*>[^<\s]/);
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+\.(?:js|css|png))"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(4);
    for (const asset of assets) {
      expect(asset.startsWith('http')).toBe(false);
      const url = asset.startsWith('/') ? asset : `/docs/${asset.replace(/^\.\//, '')}`;
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
    }
    const init = await t.app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    expect(init.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/docs/json' })).statusCode).toBe(200);
  });
});
