/**
 * The console's tables on TanStack Table (docs/console.md "Sorting and paging"), in headless
 * Chromium on the embedded database: the SLA rules page (30 rules, loaded at once) shows them 25
 * a page; a click on a column header sorts them, into the URL (`?sort=priority&order=asc`, back
 * to page 1), a reload keeps the sort and the page, and back and forward walk through the earlier
 * states. The users table, paged by the API, sorts through the API (`GET /api/users?sort=name&order=desc`)
 * across its pages, and so do the tenants and addresses tables; an old link's sort key (`?sort=branch`)
 * is read as the API field that replaced it, and the activity log's headers do not sort. On a 390 px phone each main table (users, contractors, invoices, activity) is cards with
 * its key fields, the job board's cards show theirs, the settings table pages its cards too, and
 * nothing scrolls sideways.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUuid } from '../../src/lib/crypto.ts';
import { createAgency, createBranch, createUser, type TestApp } from '../helpers/app.ts';
import { axeViolations, BrowserSession, CHROMIUM, DESKTOP, serveConsole } from '../helpers/browser.ts';
import { insertAddress, insertContractor, insertJob, insertTenant } from '../helpers/factories.ts';

const TITLE = CHROMIUM ? 'console tables: sort and page from the URL, cards on a phone' : 'console tables (skipped: Debian chromium is not installed)';

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

  const scrollWidth = (page: Page) =>
    page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth);

  beforeAll(async () => {
    ({ t, baseUrl } = await serveConsole());
    const now = new Date();
    const agency = await createAgency(t.db, 'Northgate Lettings');
    const branch = await createBranch(t.db, agency.id, 'Leeds');
    admin = (await createUser(t.db, { role: 'admin', agencyId: agency.id, branchId: branch.id, name: 'Alice Admin' })).email;
    const contractor = await insertContractor(t.db, agency.id, 'Pipe Dreams Ltd');
    const home = await insertAddress(t.db, { agencyId: agency.id, branchId: branch.id, line1: '14 Kirkstall Road', postcode: 'LS3 1HR' }, now);
    const job = await insertJob(t.db, {
      agency_id: agency.id,
      branch_id: branch.id,
      address_id: home.id,
      reference: 'JOB-900001',
      title: 'Leaking tap',
      priority: 2,
      contractor_id: contractor.id,
    });
    await t.db
      .insertInto('invoices')
      .values({
        uuid: newUuid(),
        agency_id: agency.id,
        job_id: job.id,
        contractor_id: contractor.id,
        kind: 'invoice',
        status: 'draft',
        number: null,
        issued_at: null,
        vat_registered: false,
        payment_terms_days: 30,
        net_pence: 8500,
        vat_pence: 0,
        gross_pence: 8500,
        created_at: now,
        updated_at: now,
      })
      .execute();
    // 30 SLA rules: priorities 1 to 4 and "every priority" (null) from six statuses.
    for (let i = 0; i < 30; i++) {
      await t.db
        .insertInto('branch_sla_rules')
        .values({
          uuid: newUuid(),
          agency_id: agency.id,
          branch_id: branch.id,
          job_status_from_id: 1 + Math.floor(i / 5),
          job_status_to_id: 9,
          job_type_id: null,
          job_priority: [null, 1, 2, 3, 4][i % 5]!,
          date_field_to_track: 'completed_at',
          date_field_to_compare: 'created_at',
          minimum_response_days: 1 + (i % 7),
          created_by_user_id: null,
          created_at: now,
          updated_at: now,
          deleted_at: null,
        })
        .execute();
    }
    await session.launch();
  });
  afterAll(() => session.close(t));

  it('a settings table pages its 30 rows 25 at a time and sorts by a header, all in the URL: reload keeps it, back and forward restore it', async () => {
    const page = await signedIn(admin);
    await page.goto(`${baseUrl}/sla-rules`);
    const table = page.getByRole('region', { name: 'SLA rules' });
    const rows = table.locator('tbody tr');
    const priorities = () => table.locator('tbody tr td:nth-child(2)').allInnerTexts();
    await poll(() => rows.count()).toBe(25);
    const pager = page.getByRole('navigation', { name: 'Pages' });
    expect(await pager.innerText()).toContain('Page 1 of 2');

    // The next page: the last 5 rules, ?page=2.
    await pager.getByRole('button', { name: 'Next page' }).click();
    await poll(() => rows.count()).toBe(5);
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');

    // A header click sorts all 30 (not only the page shown) and goes back to page 1.
    const header = page.getByRole('columnheader', { name: 'Priority' });
    expect(await header.getAttribute('aria-sort')).toBeNull();
    await header.getByRole('button').click();
    await poll(() => header.getAttribute('aria-sort')).toBe('ascending');
    expect(new URL(page.url()).search).toBe('?sort=priority&order=asc');
    await poll(() => rows.count()).toBe(25);
    const ascending = await priorities();
    expect(ascending.slice(0, 6).every((p) => p.startsWith('1 '))).toBe(true);
    expect(ascending[23]).toMatch(/^4 /);
    expect(ascending[24]).toBe('Every priority');
    // The other way: 4 first; the rules for every priority stay last.
    await header.getByRole('button').click();
    await poll(() => header.getAttribute('aria-sort')).toBe('descending');
    expect(new URL(page.url()).search).toBe('?sort=priority&order=desc');
    await poll(async () => (await priorities())[0]).toMatch(/^4 /);
    await pager.getByRole('button', { name: 'Next page' }).click();
    await poll(() => priorities()).toEqual(Array(5).fill('Every priority'));
    expect(new URL(page.url()).search).toBe('?sort=priority&order=desc&page=2');
    expect(await axeViolations(page)).toEqual([]);

    // A reload shows the same page of the same order.
    await page.reload();
    await poll(() => priorities()).toEqual(Array(5).fill('Every priority'));
    expect(await page.getByRole('columnheader', { name: 'Priority' }).getAttribute('aria-sort')).toBe('descending');

    // Back: page 1 descending, then ascending, then the unsorted page 2; forward again.
    await page.goBack();
    await poll(async () => (await priorities())[0]).toMatch(/^4 /);
    expect(await rows.count()).toBe(25);
    await page.goBack();
    await poll(() => page.getByRole('columnheader', { name: 'Priority' }).getAttribute('aria-sort')).toBe('ascending');
    expect((await priorities())[0]).toMatch(/^1 /);
    await page.goBack();
    await poll(() => page.getByRole('columnheader', { name: 'Priority' }).getAttribute('aria-sort')).toBeNull();
    await poll(() => rows.count()).toBe(5);
    expect(new URL(page.url()).search).toBe('?page=2');
    await page.goForward();
    await poll(() => page.getByRole('columnheader', { name: 'Priority' }).getAttribute('aria-sort')).toBe('ascending');
    await poll(() => rows.count()).toBe(25);

    // On a phone the same rules are 25 cards, the menu says the sort, the pager pages them.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByLabel('Sort SLA rules by').waitFor();
    expect(await page.getByLabel('Sort SLA rules by').inputValue()).toBe('priority:ascending');
    await poll(() => page.locator('.cards .card').count()).toBe(25);
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Next page' }).click();
    await poll(() => page.locator('.cards .card').count()).toBe(5);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
  });

  it('a table the API pages sorts through the API: a header click sends sort and order, the rows of every page come back in order, back to page 1', async () => {
    const agencyId = (await t.db.selectFrom('users').select('agency_id').where('email', '=', admin).executeTakeFirstOrThrow()).agency_id!;
    // 22 more users: 23 in all, two pages of 20 in the API's order (name ascending).
    for (let i = 1; i <= 22; i++) await createUser(t.db, { role: 'agent', agencyId, name: `Zed Sorter ${String(i).padStart(2, '0')}` });
    const page = await signedIn(admin);
    const sent: URLSearchParams[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname === '/api/users' && url.searchParams.has('offset')) sent.push(url.searchParams);
    });
    await page.goto(`${baseUrl}/users?page=2`);
    const table = page.getByRole('region', { name: 'users' });
    const names = () => table.locator('tbody tr td:first-child').allInnerTexts();
    await poll(() => names()).toEqual(['Zed Sorter 20', 'Zed Sorter 21', 'Zed Sorter 22']);
    expect(sent.at(-1)?.has('sort')).toBe(false);

    // Name ascending, then descending: the API sorts all 23 and the last user comes first on page 1.
    const header = page.getByRole('columnheader', { name: 'Name' });
    await header.getByRole('button').click();
    await poll(() => header.getAttribute('aria-sort')).toBe('ascending');
    expect(new URL(page.url()).search).toBe('?sort=name&order=asc');
    await poll(async () => (await names())[0]).toBe('Alice Admin');
    await header.getByRole('button').click();
    await poll(() => header.getAttribute('aria-sort')).toBe('descending');
    expect(new URL(page.url()).search).toBe('?sort=name&order=desc');
    await poll(async () => (await names()).slice(0, 3)).toEqual(['Zed Sorter 22', 'Zed Sorter 21', 'Zed Sorter 20']);
    expect(await names()).toHaveLength(20);
    const last = sent.at(-1)!;
    expect([last.get('sort'), last.get('order'), last.get('offset')]).toEqual(['name', 'desc', '0']);

    // Page 2 of the same order: the API's next rows, the first user last.
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Next page' }).click();
    await poll(() => names()).toEqual(['Zed Sorter 02', 'Zed Sorter 01', 'Alice Admin']);
    expect(new URL(page.url()).search).toBe('?sort=name&order=desc&page=2');
    expect([sent.at(-1)!.get('sort'), sent.at(-1)!.get('order'), sent.at(-1)!.get('offset')]).toEqual(['name', 'desc', '20']);

    // A reload keeps it; the back button goes to the previous sort.
    await page.reload();
    await poll(() => names()).toEqual(['Zed Sorter 02', 'Zed Sorter 01', 'Alice Admin']);
    await page.goBack();
    await poll(async () => (await names()).slice(0, 3)).toEqual(['Zed Sorter 22', 'Zed Sorter 21', 'Zed Sorter 20']);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('the tenants and addresses tables sort through the API across their pages; an old sort key still sorts; the activity log does not pretend to sort', async () => {
    const agencyId = (await t.db.selectFrom('users').select('agency_id').where('email', '=', admin).executeTakeFirstOrThrow()).agency_id!;
    const branchId = (await t.db.selectFrom('branches').select('id').where('agency_id', '=', agencyId).executeTakeFirstOrThrow()).id;
    // 21 more addresses (22 in all, two pages of 20), one postcode, and 22 tenants: Sorter 05 lives at two, Sorter 17 at one.
    const street: number[] = [];
    for (let i = 1; i <= 21; i++) street.push((await insertAddress(t.db, { agencyId, branchId, line1: `${String(i).padStart(2, '0')} Sorter Street`, postcode: 'LS6 1AA' })).id);
    for (let i = 1; i <= 22; i++) {
      const homes = i === 5 ? [street[0]!, street[1]!] : i === 17 ? [street[2]!] : [];
      await insertTenant(t.db, agencyId, homes, `Tenant Sorter ${String(i).padStart(2, '0')}`);
    }
    const page = await signedIn(admin);
    const sent: Record<string, URLSearchParams[]> = { '/api/tenants': [], '/api/addresses': [], '/api/users': [] };
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (sent[url.pathname] && url.searchParams.has('offset')) sent[url.pathname]!.push(url.searchParams);
    });
    const firstCells = (name: string) => page.getByRole('region', { name }).locator('tbody tr td:first-child').allInnerTexts();
    const pager = () => page.getByRole('navigation', { name: 'Pages' });

    // Tenants by number of addresses, most first: the API orders all 22 (ties by id, the same way).
    await page.goto(`${baseUrl}/tenants`);
    await poll(async () => (await firstCells('tenants'))[0]).toBe('Tenant Sorter 01');
    const addresses = page.getByRole('columnheader', { name: 'Addresses' });
    await addresses.getByRole('button').click();
    await poll(() => addresses.getAttribute('aria-sort')).toBe('ascending');
    await addresses.getByRole('button').click();
    await poll(() => addresses.getAttribute('aria-sort')).toBe('descending');
    expect(new URL(page.url()).search).toBe('?sort=address_count&order=desc');
    await poll(async () => (await firstCells('tenants')).slice(0, 4)).toEqual(['Tenant Sorter 05', 'Tenant Sorter 17', 'Tenant Sorter 22', 'Tenant Sorter 21']);
    expect([sent['/api/tenants']!.at(-1)!.get('sort'), sent['/api/tenants']!.at(-1)!.get('order')]).toEqual(['address_count', 'desc']);
    await pager().getByRole('button', { name: 'Next page' }).click();
    await poll(() => firstCells('tenants')).toEqual(['Tenant Sorter 02', 'Tenant Sorter 01']);
    expect(new URL(page.url()).search).toBe('?sort=address_count&order=desc&page=2');
    expect(sent['/api/tenants']!.at(-1)!.get('offset')).toBe('20');
    // A new sort goes back to page 1.
    await page.getByRole('columnheader', { name: 'Name' }).getByRole('button').click();
    await poll(async () => (await firstCells('tenants'))[0]).toBe('Tenant Sorter 01');
    expect(new URL(page.url()).search).toBe('?sort=name&order=asc');

    // Addresses by line 1, the other way: the last street number first, the first on page 2.
    await page.goto(`${baseUrl}/addresses`);
    await poll(async () => (await firstCells('addresses'))[0]).toBe('14 Kirkstall Road');
    const address = page.getByRole('columnheader', { name: 'Address' });
    await address.getByRole('button').click();
    await poll(() => address.getAttribute('aria-sort')).toBe('ascending');
    await poll(async () => (await firstCells('addresses'))[0]).toBe('01 Sorter Street');
    await address.getByRole('button').click();
    await poll(async () => (await firstCells('addresses')).slice(0, 2)).toEqual(['21 Sorter Street', '20 Sorter Street']);
    expect(new URL(page.url()).search).toBe('?sort=line1&order=desc');
    expect([sent['/api/addresses']!.at(-1)!.get('sort'), sent['/api/addresses']!.at(-1)!.get('order')]).toEqual(['line1', 'desc']);
    await pager().getByRole('button', { name: 'Next page' }).click();
    await poll(() => firstCells('addresses')).toEqual(['02 Sorter Street', '01 Sorter Street']);
    expect(await axeViolations(page)).toEqual([]);

    // An old bookmark's key: ?sort=hmo is the HMO column (is_hmo), ?sort=branch the users' Branch (branch_name).
    await page.goto(`${baseUrl}/addresses?sort=hmo&order=asc`);
    await poll(() => page.getByRole('columnheader', { name: 'HMO' }).getAttribute('aria-sort')).toBe('ascending');
    await poll(() => sent['/api/addresses']!.at(-1)?.get('sort')).toBe('is_hmo');
    await page.goto(`${baseUrl}/users?sort=branch&order=asc`);
    await poll(() => page.getByRole('columnheader', { name: 'Branch' }).getAttribute('aria-sort')).toBe('ascending');
    await poll(() => sent['/api/users']!.at(-1)?.get('sort')).toBe('branch_name');

    // The activity log pages in one order (newest first): its headers are not buttons.
    await page.goto(`${baseUrl}/activity`);
    await page.getByRole('region', { name: 'entries' }).waitFor();
    expect(await page.getByRole('columnheader', { name: 'When' }).getByRole('button').count()).toBe(0);
    expect(await page.getByRole('region', { name: 'entries' }).locator('thead button').count()).toBe(0);
  });

  it('on a 390 px phone the users, contractors, invoices and activity tables are cards with their key fields, and so is the job board', async () => {
    const page = await signedIn(admin, { width: 390, height: 844 });
    /** The card whose title is `title`: its field labels and values. */
    const card = async (title: string) => {
      const c = page.locator('.cards .card', { has: page.locator('.card-title', { hasText: title }) }).first();
      await c.waitFor();
      return { labels: await c.locator('dt').allInnerTexts(), values: await c.locator('dd').allInnerTexts() };
    };

    await page.goto(`${baseUrl}/users`);
    const user = await card('Alice Admin');
    expect(user.labels).toEqual(['E-mail', 'Role', 'Branch', 'Status']);
    expect(user.values.slice(1, 3).map((v) => v.toLowerCase())).toEqual(['admin', 'leeds']);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);

    await page.goto(`${baseUrl}/contractors`);
    expect((await card('Pipe Dreams Ltd')).labels).toEqual(['Contact', 'Trades']);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);

    await page.goto(`${baseUrl}/invoices`);
    const invoice = await card('Draft invoice');
    expect(invoice.labels).toEqual(['Contractor', 'Job', 'Status', 'Due', 'Gross', 'Still owed', 'Next step']);
    expect(invoice.values.slice(0, 3)).toEqual(['Pipe Dreams Ltd', 'JOB-900001', 'Draft']);
    expect(invoice.values[4]).toBe('£85.00');
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);

    await page.goto(`${baseUrl}/activity`);
    await page.locator('.cards .card').first().waitFor();
    expect(await page.locator('.cards .card').first().locator('dt').allInnerTexts()).toEqual(['Record', 'Who', 'When']);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);

    await page.goto(`${baseUrl}/jobs`);
    const jobCard = page.locator('.job-card', { hasText: 'Leaking tap' });
    await jobCard.waitFor();
    expect(await jobCard.locator('.ref').innerText()).toBe('JOB-900001');
    const meta = await jobCard.locator('.meta').innerText();
    for (const field of ['14 Kirkstall Road, LS3 1HR', 'Contractor: Pipe Dreams Ltd', 'Reported ']) expect(meta).toContain(field);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
  });
});
