/**
 * The console's sortable tables and dashboard charts (docs/console.md "Sorting and paging" and "Charts"), in
 * headless Chromium on the embedded database: a click on a column header reorders the users, the
 * header's aria-sort says which way and the URL keeps it (a reload shows the same order); on a
 * 390 px phone the table is cards with a "Sort by" menu and nothing scrolls sideways; the job
 * board's sort buttons sort through the API and keep the sort in the URL; the dashboard draws its
 * three charts (jobs opened and completed per week, SLA breaches per week, jobs by status), each
 * with its figures in a table for screen readers; axe finds no violations on either page.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUuid } from '../../src/lib/crypto.ts';
import { createAgency, createBranch, createUser, type TestApp } from '../helpers/app.ts';
import { axeViolations, BrowserSession, CHROMIUM, DESKTOP, serveConsole } from '../helpers/browser.ts';
import { insertAddress, insertJob } from '../helpers/factories.ts';

const TITLE = CHROMIUM ? 'console tables and charts in headless Chromium' : 'console tables and charts (skipped: Debian chromium is not installed)';
const DAY = 86_400_000;

/** expect.poll with 10 s to settle (a shared two-core machine is slow to answer at times). */
function poll<T>(fn: () => T | Promise<T>) {
  return expect.poll(fn, { timeout: 10_000 });
}

describe.skipIf(!CHROMIUM)(TITLE, () => {
  let t: TestApp;
  const session = new BrowserSession();
  let baseUrl: string;
  let admin: string;

  const signedIn = (email: string, viewport = DESKTOP) => session.signedIn(baseUrl, email, viewport);

  /** The elements that reach past the right edge of a 390 px screen (tag.class and right edge), for a failure's message. */
  const wide = (page: Page) =>
    page.locator('body *').evaluateAll((els) =>
      els
        .map((e) => ({ e, right: e.getBoundingClientRect().right }))
        .filter((x) => x.right > 390)
        .slice(0, 5)
        .map((x) => `${x.e.tagName.toLowerCase()}.${String(x.e.getAttribute('class') ?? '')} ${Math.round(x.right)}`),
    );

  /** The first cells (names) of the users table, top to bottom. */
  const names = (page: Page) => page.getByRole('region', { name: 'users' }).locator('tbody tr td:first-child').allInnerTexts();

  beforeAll(async () => {
    ({ t, baseUrl } = await serveConsole());
    const now = new Date();
    const agency = await createAgency(t.db, 'Northgate Lettings');
    const branch = await createBranch(t.db, agency.id, 'Leeds');
    admin = (await createUser(t.db, { role: 'admin', agencyId: agency.id, name: 'Alice Admin' })).email;
    // The API lists users by name; their e-mail addresses run the other way.
    await createUser(t.db, { role: 'agent', agencyId: agency.id, branchId: branch.id, name: 'Bella Brown', email: 'zz-bella@example.test' });
    await createUser(t.db, { role: 'agent', agencyId: agency.id, branchId: branch.id, name: 'Carl Cole', email: 'yy-carl@example.test' });
    await createUser(t.db, { role: 'agent', agencyId: agency.id, branchId: branch.id, name: 'Dora Dunn', email: 'xx-dora@example.test' });
    const home = await insertAddress(t.db, { agencyId: agency.id, branchId: branch.id, line1: '14 Kirkstall Road', postcode: 'LS3 1HR' }, now);
    const base = { agency_id: agency.id, branch_id: branch.id, address_id: home.id };
    // Jobs over the last weeks: opened two weeks ago and completed last week, and open ones of
    // each priority (the board's default sort is newest first).
    for (let i = 0; i < 3; i++) {
      await insertJob(t.db, {
        ...base,
        reference: `JOB-70000${i}`,
        title: `Finished repair ${i}`,
        status_id: 9,
        created_at: new Date(now.getTime() - 14 * DAY),
        completed_at: new Date(now.getTime() - 7 * DAY),
      });
    }
    await insertJob(t.db, { ...base, reference: 'JOB-800001', title: 'Leaking tap', priority: 4, created_at: new Date(now.getTime() - 2 * DAY) });
    await insertJob(t.db, { ...base, reference: 'JOB-800002', title: 'No heating', priority: 1, created_at: new Date(now.getTime() - 3 * DAY) });
    const late = await insertJob(t.db, { ...base, reference: 'JOB-800003', title: 'Broken window', priority: 2, created_at: new Date(now.getTime() - DAY) });
    // One SLA clock ran out yesterday (docs/sla.md): one breach this week or last.
    const rule = await t.db
      .insertInto('branch_sla_rules')
      .values({
        uuid: newUuid(),
        agency_id: agency.id,
        branch_id: branch.id,
        job_status_from_id: 1,
        job_status_to_id: 9,
        job_type_id: null,
        job_priority: null,
        date_field_to_track: 'completed_at',
        date_field_to_compare: 'created_at',
        minimum_response_days: 1,
        created_by_user_id: null,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('sla_clocks')
      .values({
        agency_id: agency.id,
        branch_id: branch.id,
        job_id: late.id,
        rule_id: rule.id,
        state: 'breached',
        started_at: new Date(now.getTime() - 2 * DAY),
        due_at: new Date(now.getTime() - DAY / 2),
        at_risk_at: new Date(now.getTime() - DAY),
        stopped_at: null,
        breached_at: new Date(now.getTime() - DAY / 2),
        at_risk_flagged_at: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await session.launch();
  });
  afterAll(() => session.close(t));

  it('a column header sorts the users table, says so with aria-sort, and the URL keeps the sort', async () => {
    const page = await signedIn(admin);
    await page.goto(`${baseUrl}/users`);
    await page.getByRole('cell', { name: 'Dora Dunn', exact: true }).waitFor();
    expect(await names(page)).toEqual(['Alice Admin', 'Bella Brown', 'Carl Cole', 'Dora Dunn']);
    const nameHeader = page.getByRole('columnheader', { name: 'Name' });
    expect(await nameHeader.getAttribute('aria-sort')).toBeNull();

    // First click: ascending (the order the API gave); second: descending.
    await nameHeader.getByRole('button').click();
    await poll(() => nameHeader.getAttribute('aria-sort')).toBe('ascending');
    await nameHeader.getByRole('button').click();
    await poll(() => nameHeader.getAttribute('aria-sort')).toBe('descending');
    // The header changes at once; the rows when the API's sorted page arrives.
    await poll(() => names(page)).toEqual(['Dora Dunn', 'Carl Cole', 'Bella Brown', 'Alice Admin']);
    expect(new URL(page.url()).searchParams.get('sort')).toBe('name');
    expect(new URL(page.url()).searchParams.get('order')).toBe('desc');

    // Another column: only the sorted header carries aria-sort.
    const emailHeader = page.getByRole('columnheader', { name: 'E-mail' });
    await emailHeader.getByRole('button').click();
    await poll(() => emailHeader.getAttribute('aria-sort')).toBe('ascending');
    expect(await nameHeader.getAttribute('aria-sort')).toBeNull();
    // admin-...@ first, then xx-dora, yy-carl, zz-bella.
    await poll(() => names(page)).toEqual(['Alice Admin', 'Dora Dunn', 'Carl Cole', 'Bella Brown']);
    expect(page.url()).toContain('sort=email&order=asc');

    // The URL restores it: a reload, and the back button to the previous sort.
    await page.reload();
    await page.getByRole('cell', { name: 'Dora Dunn', exact: true }).waitFor();
    expect(await page.getByRole('columnheader', { name: 'E-mail' }).getAttribute('aria-sort')).toBe('ascending');
    expect(await names(page)).toEqual(['Alice Admin', 'Dora Dunn', 'Carl Cole', 'Bella Brown']);
    await page.goBack();
    await poll(() => page.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).toBe('descending');
    await poll(() => names(page)).toEqual(['Dora Dunn', 'Carl Cole', 'Bella Brown', 'Alice Admin']);
    expect(await axeViolations(page)).toEqual([]);

    // On a 390 px phone: cards in the sorted order, a "Sort by" menu, nothing sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    const menu = page.getByLabel('Sort users by');
    await menu.waitFor();
    expect(await menu.inputValue()).toBe('name:descending');
    expect(await page.locator('.cards .card .card-title').allInnerTexts()).toEqual(['Dora Dunn', 'Carl Cole', 'Bella Brown', 'Alice Admin']);
    await menu.selectOption('name:ascending');
    await poll(() => page.locator('.cards .card .card-title').allInnerTexts()).toEqual(['Alice Admin', 'Bella Brown', 'Carl Cole', 'Dora Dunn']);
    expect(page.url()).toContain('sort=name&order=asc');
    expect(await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('the job board sorts through the API with its sort buttons, kept in the URL', async () => {
    const page = await signedIn(admin);
    await page.goto(`${baseUrl}/jobs`);
    const refs = () => page.locator('.job-card .ref').allInnerTexts();
    await page.locator('.job-card', { hasText: 'Leaking tap' }).waitFor();
    expect((await refs()).slice(0, 3)).toEqual(['JOB-800003', 'JOB-800001', 'JOB-800002']);
    const reported = page.getByRole('button', { name: /^Sort by Reported/ });
    expect(await reported.getAttribute('aria-pressed')).toBe('true');
    expect(await reported.getAttribute('aria-label')).toBe('Sort by Reported, descending');

    const priority = page.getByRole('button', { name: /^Sort by Priority/ });
    const answered = page.waitForResponse((r) => r.url().includes('/api/jobs/manage') && r.url().includes('sort=priority') && r.url().includes('order=desc'));
    await priority.click();
    await answered;
    expect(new URL(page.url()).searchParams.get('sort')).toBe('priority');
    await poll(() => page.getByRole('button', { name: /^Sort by Priority/ }).getAttribute('aria-pressed')).toBe('true');
    // Once more: the other way (priority 1, Emergency, first).
    await page.getByRole('button', { name: /^Sort by Priority/ }).click();
    await poll(async () => (await refs())[0]).toBe('JOB-800002');
    expect(page.url()).toContain('sort=priority&order=asc');
    expect(await page.getByRole('button', { name: /^Sort by Priority/ }).getAttribute('aria-label')).toBe('Sort by Priority, ascending');
    await page.reload();
    await page.locator('.job-card', { hasText: 'Leaking tap' }).waitFor();
    await poll(async () => (await refs())[0]).toBe('JOB-800002');
    expect(await axeViolations(page)).toEqual([]);
  });

  it('the dashboard draws its three charts, each with its figures in a table for screen readers', async () => {
    const page = await signedIn(admin);
    const chunk = page.waitForResponse((r) => /\/assets\/dashboard-charts-[^/]+\.js$/.test(r.url()));
    await page.goto(`${baseUrl}/`);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await chunk;
    for (const title of ['Jobs opened and completed per week', 'SLA breaches per week', 'Jobs by status']) {
      const section = page.getByRole('region', { name: title });
      await section.locator('svg.recharts-surface').first().waitFor();
      // The drawing is hidden from assistive technology; the table with the same caption is not.
      expect(await section.locator('.chart-figure').getAttribute('aria-hidden')).toBe('true');
      await section.getByRole('table', { name: title }).waitFor({ state: 'attached' });
    }
    const weekly = page.getByRole('region', { name: 'Jobs opened and completed per week' });
    expect(await weekly.locator('.hint').innerText()).toBe('Last 12 weeks: 6 opened, 3 completed.');
    const weeklyRows = await weekly.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.textContent ?? ''));
    expect(weeklyRows).toHaveLength(12);
    expect(weeklyRows.some((r) => /^Mon \d{1,2} [A-Z][a-z]{2} \d{4}30$/.test(r))).toBe(true);
    const sla = page.getByRole('region', { name: 'SLA breaches per week' });
    expect(await sla.locator('.hint').innerText()).toContain('1 SLA breach');
    const status = page.getByRole('region', { name: 'Jobs by status' });
    expect(await status.locator('.hint').innerText()).toMatch(/^3 open jobs: 3 /);
    expect(await axeViolations(page)).toEqual([]);

    // A 390 px phone: the charts fit, nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await poll(() => weekly.locator('svg.recharts-surface').first().evaluate((s) => s.getBoundingClientRect().right)).toBeLessThanOrEqual(390);
    await page.waitForTimeout(500);
    expect(
      await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth),
      (await wide(page)).join('; '),
    ).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);

    // The chart library is a chunk of its own: the app's entry script does not hold it; the
    // dashboard page, itself loaded when first shown, loads it.
    const html = await (await fetch(`${baseUrl}/`)).text();
    const entry = /<script[^>]+src="([^"]+)"/.exec(html)![1]!;
    const code = await (await fetch(new URL(entry, baseUrl))).text();
    expect(code).not.toContain('recharts-surface');
    const dashboard = /["`'](?:\.\/|assets\/)(dashboard-(?!charts)[\w-]+\.js)["`']/.exec(code)?.[1];
    expect(dashboard, 'the entry names the dashboard page\'s chunk').toBeDefined();
    const dashboardCode = await (await fetch(new URL(`/assets/${dashboard!}`, baseUrl))).text();
    expect(dashboardCode).not.toContain('recharts-surface');
    expect(dashboardCode).toContain('dashboard-charts');
  });
});
