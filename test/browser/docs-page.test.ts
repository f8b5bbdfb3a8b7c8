/**
 * The /docs page in a real headless Chromium (docs/api.md, "Docs page"): after one login through
 * the page, "Try it out" works for writes (the page fetches the CSRF token by itself), including
 * a file upload through the file picker and a write without a body.
 */
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { warmDocs } from '../../src/http/openapi.ts';
import { buildTestApp, createAgency, createBranch, createUser, TEST_PASSWORD, type TestApp } from '../helpers/app.ts';
import { BrowserSession, CHROMIUM } from '../helpers/browser.ts';
import { skipWithout } from '../helpers/skip.ts';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** Opens an operation, presses "Try it out", lets `fill` set its inputs, executes, and returns the status shown. */
async function tryOut(page: Page, tag: string, operationId: string, fill: (op: ReturnType<Page['locator']>) => Promise<void>): Promise<number> {
  const op = page.locator(`#operations-${tag.replace(/ /g, '_')}-${operationId}`);
  // Tags start collapsed (docExpansion 'none'): open the tag first when its operations are hidden.
  if (!(await op.isVisible())) await page.locator(`#operations-tag-${tag.replace(/ /g, '_')}`).click();
  await op.locator('.opblock-summary').first().click();
  await op.getByRole('button', { name: 'Try it out' }).click();
  await fill(op);
  await op.getByRole('button', { name: 'Execute' }).click();
  const status = op.locator('.live-responses-table .response .response-col_status').first();
  await status.waitFor({ timeout: 20_000 });
  return Number((await status.innerText()).trim().split(/\s/)[0]);
}

const TITLE = CHROMIUM ? 'the /docs page in headless Chromium' : 'the /docs page (skipped: Debian chromium is not installed; apt-get install chromium)';

describe.skipIf(skipWithout(CHROMIUM, 'the /docs browser test needs Debian chromium (apt-get install chromium)'))(TITLE, () => {
  let t: TestApp;
  const session = new BrowserSession();
  let page: Page;
  let baseUrl: string;
  let adminEmail: string;
  let branchUuid: string;

  beforeAll(async () => {
    t = await buildTestApp({ CARETAKER_COOKIE_SECURE: 'false' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    // As `serve` does after listening: the documents are built before the first visit (measured below).
    warmDocs(t.app);
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const agency = await createAgency(t.db, 'Docs Agency');
    const branch = await createBranch(t.db, agency.id, 'Harrogate');
    await createBranch(t.db, agency.id, 'To close');
    branchUuid = (await t.db.selectFrom('branches').select('uuid').where('name', '=', 'To close').executeTakeFirstOrThrow()).uuid;
    adminEmail = (await createUser(t.db, { role: 'admin', agencyId: agency.id, branchId: branch.id })).email;
    page = await (await session.launch()).newPage();
  });
  afterAll(() => session.close(t));

  it('renders the reference with every operation from the compressed, cached document', async () => {
    // Swagger UI fetches /docs/json, which answers with the compressed, ETag-cached copy that
    // /api/openapi.json serves (src/http/openapi.ts), never an uncompressed serialisation.
    const documents: Array<{ url: string; encoding: string | undefined; etag: string | undefined }> = [];
    page.on('response', (res) => {
      if (/\/api\/openapi\.json|\/docs\/json/.test(res.url())) {
        documents.push({ url: new URL(res.url()).pathname, encoding: res.headers()['content-encoding'], etag: res.headers().etag });
      }
    });
    // Measured, not asserted (no timed assertions): from navigation start to the reference drawn
    // (every tag, collapsed). docs/api.md "Docs page" records the figure.
    // The page's HTML holds a first view (title and every tag, docs-page.ts) that the browser draws
    // before Swagger UI has started; Swagger UI replaces it when it draws.
    const started = Date.now();
    await page.goto(`${baseUrl}/docs`, { waitUntil: 'commit' });
    await page.locator('#operations-tag-auth').waitFor({ timeout: 60_000 });
    const elapsed = Date.now() - started;
    expect(await page.locator('#docs-outline').count()).toBe(0);
    const html = await (await page.request.get(`${baseUrl}/docs`)).text();
    for (const tag of ['auth', 'jobs', 'administration', 'workflow automation']) expect(html).toContain(`<span>${tag}</span>`);
    expect(html).toContain('id="docs-outline"');
    const firstPaint = await page.evaluate(() => Math.round(performance.getEntriesByType('paint' as 'mark').find((e) => e.name === 'first-contentful-paint')?.startTime ?? -1));
    // Every operation is there: open every tag and count them.
    const tags = page.locator('.opblock-tag');
    for (let i = 0; i < (await tags.count()); i++) await tags.nth(i).click();
    await page.locator('#operations-auth-login').waitFor({ timeout: 60_000 });
    expect(await page.locator('.opblock').count()).toBeGreaterThanOrEqual(200);
    expect(documents).toHaveLength(1);
    expect(documents[0]).toMatchObject({ url: '/docs/json', encoding: expect.stringMatching(/^(br|gzip)$/), etag: expect.any(String) });
    const timing = await page.evaluate(() => {
      const entries = performance.getEntriesByType('resource') as unknown as Array<{ name: string; responseEnd: number }>;
      const end = (part: string) => Math.round(entries.find((e) => e.name.includes(part))?.responseEnd ?? -1);
      return { bundle: end('swagger-ui-bundle.js'), document: end('/docs/json') };
    });
    process.stdout.write(
      `docs page: first view painted at ${firstPaint} ms; Swagger UI drawn ${elapsed} ms after navigation start; script loaded at ${timing.bundle} ms, ` +
        `document (${documents[0]!.encoding}) at ${timing.document} ms\n`,
    );
    // A second visit revalidates the document (304 from its ETag) and draws from the browser cache.
    const again = Date.now();
    await page.reload();
    await page.locator('#operations-tag-auth').waitFor({ timeout: 60_000 });
    process.stdout.write(`docs page: second visit drawn in ${Date.now() - again} ms\n`);
    // A first visit of another user: a new browser context (empty cache) in the running browser,
    // so the figure is the page's and not the browser's own cold start.
    const fresh = await session.browser.newContext();
    const other = await fresh.newPage();
    const firstWarm = Date.now();
    await other.goto(`${baseUrl}/docs`);
    await other.locator('#operations-tag-auth').waitFor({ timeout: 60_000 });
    const otherPaint = await other.evaluate(() => Math.round(performance.getEntriesByType('paint' as 'mark').find((e) => e.name === 'first-contentful-paint')?.startTime ?? -1));
    process.stdout.write(`docs page: first visit with an empty cache, browser running: first view painted at ${otherPaint} ms, Swagger UI drawn in ${Date.now() - firstWarm} ms\n`);
    await fresh.close();
  });

  it('logs in, creates a job, uploads a photo and closes a branch through the page', async () => {
    const login = await tryOut(page, 'auth', 'login', async (op) => {
      await op.locator('textarea.body-param__text').fill(JSON.stringify({ email: adminEmail, password: TEST_PASSWORD }));
    });
    expect(login).toBe(200);

    const created = await tryOut(page, 'jobs', 'createJob', async (op) => {
      await op.locator('textarea.body-param__text').fill(JSON.stringify({ title: 'Cracked window in the hall', priority: 2, branch_uuid: (await t.db.selectFrom('branches').select('uuid').where('name', '=', 'Harrogate').executeTakeFirstOrThrow()).uuid }));
    });
    expect(created).toBe(201);
    const job = await t.db.selectFrom('jobs').select(['uuid']).where('title', '=', 'Cracked window in the hall').executeTakeFirstOrThrow();

    const uploaded = await tryOut(page, 'jobs', 'uploadJobPhoto', async (op) => {
      await op.locator('tr[data-param-name="uuid"] input').fill(job.uuid);
      await op.locator('input[type="file"]').setInputFiles({ name: 'window.png', mimeType: 'image/png', buffer: PNG });
    });
    expect(uploaded).toBe(201);

    const closed = await tryOut(page, 'administration', 'closeBranch', async (op) => {
      await op.locator('tr[data-param-name="uuid"] input').fill(branchUuid);
    });
    expect(closed).toBe(200);
    const branch = await t.db.selectFrom('branches').select('closed_at').where('uuid', '=', branchUuid).executeTakeFirstOrThrow();
    expect(branch.closed_at).not.toBeNull();
  });
});
