/**
 * The agency's landlords and properties in the console (docs/console.md "Landlords" and "Property
 * page"), in headless Chromium on PGlite: an administrator walks the landlord list to a landlord's
 * record (properties and shares, an approval waiting with "Send again", statements with their PDF)
 * and on to the property's page (landlord, tenants, compliance, jobs), at 1280 and 390 px, with
 * axe on every page and a reload of each landing on the same page; a bookmarked address with a
 * dot (`/templates/job.received.email`) opens the app. Then the tenant's and the contractor's
 * pages are read for words a person should never see: priority numbers, status codes, internal
 * template names.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createAgency, createBranch, createUser, login, type TestApp } from '../helpers/app.ts';
import { BrowserSession, checkAndShoot, CHROMIUM, DESKTOP, PHONE, reloadLands, serveConsole } from '../helpers/browser.ts';
import { insertAddress, insertContractor, insertJob, insertTenant } from '../helpers/factories.ts';

const SIZES = { phone: PHONE, desktop: DESKTOP };
/** Where CONSOLE_SCREENSHOTS=1 writes the docs' pictures. */
const SHOTS = 'docs/console';

/**
 * Words a tenant or contractor must never read on a console page: a priority as a number
 * ("Priority 2", "(priority 4)"), a status or state code ("in_progress", "at_risk"), an internal
 * template name ("job.received.email") or a template variable ("{{ job.title }}").
 */
export const INTERNAL_WORDS: Array<[what: string, pattern: RegExp]> = [
  ['a priority number', /\bpriority\s*:?\s*\d/i],
  ['a status code', /\b(in_progress|on_hold|at_risk|due_soon|awaiting_[a-z]+|[a-z]+_[a-z]+_[a-z_]+)\b/],
  ['a template name', /\b[a-z_]+\.[a-z_]+\.(email|sms|push)\b/],
  ['a template variable', /\{\{[^}]*\}\}/],
];

/** The internal words found in the page's visible text, as "a priority number: 'Priority 2'". */
async function internalWords(page: Page): Promise<string[]> {
  const text = await page.locator('body').innerText();
  return INTERNAL_WORDS.flatMap(([what, re]) => {
    const m = re.exec(text);
    return m ? [`${what}: '${m[0]}'`] : [];
  });
}

const TITLE = CHROMIUM ? 'landlords and properties in the console' : 'landlords and properties in the console (skipped: Debian chromium is not installed)';

describe.skipIf(!CHROMIUM)(TITLE, () => {
  let t: TestApp;
  const session = new BrowserSession();
  let baseUrl: string;
  let ids: { landlord: string; address: string; job: string; admin: string; tenant: string; contractor: string };

  beforeAll(async () => {
    ({ t, baseUrl } = await serveConsole());
    await session.launch();
    const agency = await createAgency(t.db, 'Headingley Homes');
    const leeds = await createBranch(t.db, agency.id, 'Leeds');
    const flat = await insertAddress(t.db, { agencyId: agency.id, branchId: leeds.id, line1: '12 Hyde Park Road', postcode: 'LS6 1AB' });
    const tenant = await insertTenant(t.db, agency.id, [flat.id], 'Emily Clarke');
    const firm = await insertContractor(t.db, agency.id, 'Pipe Dreams Ltd');
    const job = await insertJob(t.db, {
      agency_id: agency.id, branch_id: leeds.id, address_id: flat.id, tenant_id: tenant.id, contractor_id: firm.id,
      title: 'Dripping kitchen tap', priority: 2, status_id: 4, reference: 'JOB-000101',
    });
    const admin = await createUser(t.db, { role: 'admin', agencyId: agency.id, branchId: leeds.id, name: 'Ada Admin' });
    const tenantUser = await createUser(t.db, { role: 'tenant', agencyId: agency.id, tenantId: tenant.id, name: 'Emily Clarke' });
    const contractorUser = await createUser(t.db, { role: 'contractor', agencyId: agency.id, contractorId: firm.id, name: 'Pat Plumber' });
    // The landlord, their property and an approval waiting, through the API as the office would.
    const api = new Client(t.app, await login(t.app, admin.email));
    const created = await api.post('/api/landlords', { name: 'Margaret Oyelaran', email: 'margaret@example.test', approval_limit_pence: 10_000 });
    expect(created.statusCode, created.body).toBe(201);
    const landlord = created.json().data.uuid as string;
    const linked = await api.post(`/api/landlords/${landlord}/properties`, { address_uuid: flat.uuid, share_bp: 10_000 });
    expect(linked.statusCode, linked.body).toBe(201);
    const asked = await api.post(`/api/jobs/${job.uuid}/landlord-approval`, { amount_pence: 25_000, description: 'New kitchen mixer tap and fitting' });
    expect(asked.statusCode, asked.body).toBeLessThan(300);
    ids = { landlord, address: flat.uuid, job: job.uuid, admin: admin.email, tenant: tenantUser.email, contractor: contractorUser.email };
  });
  afterAll(() => session.close(t));

  for (const [label, size] of Object.entries(SIZES)) {
    it(`walks landlords, a landlord and their property at ${label} width, each page surviving a reload`, async () => {
      const page = await session.signedIn(baseUrl, ids.admin, size, { timeoutMs: 20_000 });

      await page.goto(`${baseUrl}/landlords`);
      await page.getByRole('heading', { level: 1, name: 'Landlords' }).waitFor();
      await page.getByText('1 landlord', { exact: true }).waitFor();
      await checkAndShoot(page, SHOTS, `landlords-${label}`);
      await reloadLands(page, 'Landlords');

      await page.getByRole('link', { name: 'Margaret Oyelaran' }).click();
      await page.getByRole('heading', { level: 1, name: 'Margaret Oyelaran' }).waitFor();
      await page.getByText('Waiting for the landlord').first().waitFor();
      await page.getByRole('heading', { name: 'Properties and shares' }).waitFor();
      await page.getByText('100 %').first().waitFor();
      await page.getByText('Closing balance').waitFor();
      await checkAndShoot(page, SHOTS, `landlord-${label}`);
      // The statement's PDF opens on the session.
      const pdfHref = await page.getByRole('link', { name: /^PDF/ }).first().getAttribute('href');
      const pdf = await page.request.get(`${baseUrl}${pdfHref}`);
      expect(pdf.status()).toBe(200);
      expect(pdf.headers()['content-type']).toContain('application/pdf');
      // Send the waiting approval again: a new link goes to the landlord.
      await page.getByRole('button', { name: 'Send again: JOB-000101' }).click();
      await page.getByText('A new link for JOB-000101 was e-mailed to the landlord.').waitFor();
      await reloadLands(page, 'Margaret Oyelaran');

      await page.getByRole('link', { name: /12 Hyde Park Road/ }).first().click();
      await page.getByRole('heading', { level: 1, name: /12 Hyde Park Road/ }).waitFor();
      await page.getByRole('link', { name: 'Margaret Oyelaran' }).waitFor();
      await page.getByText('Emily Clarke').first().waitFor();
      await page.getByRole('link', { name: 'JOB-000101: Dripping kitchen tap' }).waitFor();
      await checkAndShoot(page, SHOTS, `property-${label}`);
      await reloadLands(page, /12 Hyde Park Road/);

      // The job page links back to the property and names the landlord.
      await page.getByRole('link', { name: 'JOB-000101: Dripping kitchen tap' }).click();
      await page.getByRole('heading', { level: 1, name: 'JOB-000101: Dripping kitchen tap' }).waitFor();
      await page.getByRole('link', { name: 'Margaret Oyelaran' }).waitFor();
      await page.getByRole('link', { name: /12 Hyde Park Road/ }).waitFor();
      await reloadLands(page, 'JOB-000101: Dripping kitchen tap');
    });
  }

  it('opens a bookmarked message template, whose address has dots, in the app', async () => {
    const page = await session.signedIn(baseUrl, ids.admin, DESKTOP, { timeoutMs: 20_000 });
    const res = await page.goto(`${baseUrl}/templates/job.received.email`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-type']).toContain('text/html');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await page.getByRole('heading', { level: 1, name: 'Page not found' }).count()).toBe(0);
  });

  for (const who of ['tenant', 'contractor'] as const) {
    it(`shows the ${who} no priority number, status code or template name`, async () => {
      const page = await session.signedIn(baseUrl, ids[who], DESKTOP, { timeoutMs: 20_000 });
      for (const path of ['/jobs', `/jobs/${ids.job}`]) {
        await page.goto(`${baseUrl}${path}`);
        await page.getByText(/Dripping kitchen tap/).first().waitFor();
        await page.locator('p.loading').first().waitFor({ state: 'detached' }).catch(() => undefined);
        expect(await internalWords(page), `${who} on ${path}`).toEqual([]);
      }
      // The check itself catches what it is for.
      await page.evaluate(() => {
        const doc = (globalThis as unknown as { document: { body: { insertAdjacentHTML(where: string, html: string): void } } }).document;
        doc.body.insertAdjacentHTML('beforeend', '<p>Priority 2 (in_progress), see job.received.email</p>');
      });
      expect(await internalWords(page)).toEqual(["a priority number: 'Priority 2'", "a status code: 'in_progress'", "a template name: 'job.received.email'"]);
    });
  }
});
