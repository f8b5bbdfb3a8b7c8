/**
 * The property page's "Tenancies and served documents" section (docs/compliance.md "Tenancies and
 * served documents"), in headless Chromium on PGlite: a tenancy that began before its gas safety
 * record was served shows the record overdue; the office records the service through the form
 * (after the start) and the row reads "Served late"; axe checks the page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createAgency, createBranch, createUser, login, type TestApp } from '../helpers/app.ts';
import { BrowserSession, checkAndShoot, CHROMIUM, DESKTOP, serveConsole } from '../helpers/browser.ts';
import { insertAddress, insertTenant } from '../helpers/factories.ts';

const TITLE = CHROMIUM ? 'tenancies and served documents on the property page' : 'tenancies and served documents on the property page (skipped: Debian chromium is not installed)';

describe.skipIf(!CHROMIUM)(TITLE, () => {
  let t: TestApp;
  const session = new BrowserSession();
  let baseUrl: string;
  let ids: { admin: string; address: string };

  beforeAll(async () => {
    ({ t, baseUrl } = await serveConsole());
    await session.launch();
    t.clock.set(new Date('2026-03-10T10:00:00Z'));
    const agency = await createAgency(t.db, 'Headingley Homes');
    const leeds = await createBranch(t.db, agency.id, 'Leeds');
    const flat = await insertAddress(t.db, { agencyId: agency.id, branchId: leeds.id, line1: '12 Hyde Park Road', postcode: 'LS6 1AB' });
    const tenant = await insertTenant(t.db, agency.id, [flat.id], 'Emily Clarke');
    const admin = await createUser(t.db, { role: 'admin', agencyId: agency.id, branchId: leeds.id, name: 'Ada Admin' });
    const api = new Client(t.app, await login(t.app, admin.email));
    const item = (await api.get(`/api/compliance?address_uuid=${flat.uuid}&type=gas_safety`)).json().data[0].uuid as string;
    expect((await api.post(`/api/compliance/items/${item}/certificates`, { issued_on: '2026-02-10', reference: 'GS-1' })).statusCode).toBe(201);
    const tenancy = await api.post(`/api/properties/${flat.uuid}/tenancies`, { starts_on: '2026-03-01', tenant_uuids: [tenant.uuid] });
    expect(tenancy.statusCode, tenancy.body).toBe(201);
    ids = { admin: admin.email, address: flat.uuid };
  });
  afterAll(() => session.close(t));

  it('shows what is owed and records a service with the form', async () => {
    const page = await session.signedIn(baseUrl, ids.admin, DESKTOP, { timeoutMs: 20_000 });
    await page.goto(`${baseUrl}/properties/${ids.address}`);
    await page.getByRole('heading', { level: 2, name: 'Tenancies and served documents', exact: true }).waitFor();
    const tenancy = page.getByRole('article', { name: 'Tenancy from 1 Mar 2026: Emily Clarke', exact: true });
    await tenancy.waitFor();
    const gasRow = tenancy.getByRole('row').filter({ has: page.getByText('Gas safety record', { exact: true }) });
    await gasRow.getByText('Overdue', { exact: true }).waitFor();
    await page.getByText('4 documents owed to the tenants.', { exact: true }).waitFor();

    const form = page.getByRole('form', { name: 'Record a service on the tenancy from 1 Mar 2026', exact: true });
    // A select's accessible name takes in its chosen option: the selects are found by their field names.
    await form.locator('select[name="document"]').selectOption('gas_safety');
    await form.locator('select[name="certificate_uuid"]').selectOption({ label: 'issued 10 Feb 2026' });
    await form.getByLabel('Served on', { exact: true }).fill('2026-03-05');
    await form.locator('select[name="method"]').selectOption('email');
    await form.getByLabel('Proof of service (a note)', { exact: true }).fill('Sent to emily@example.test');
    await form.getByRole('button', { name: 'Record the service', exact: true }).click();
    await gasRow.getByText('Served late', { exact: true }).waitFor();
    await page.getByText('3 documents owed to the tenants.', { exact: true }).waitFor();
    await tenancy.getByText('Gas safety record (issued 10 Feb 2026) served by e-mail on 5 Mar 2026; proof: Sent to emily@example.test', { exact: true }).waitFor();
    await checkAndShoot(page, 'docs/console', 'property-tenancies-desktop');

    // A second tenancy, started from the form with the property's tenant on it.
    const start = page.getByRole('form', { name: 'Start a tenancy', exact: true });
    await start.getByLabel('First day', { exact: true }).fill('2027-03-01');
    await start.getByRole('checkbox', { name: 'Emily Clarke', exact: true }).check();
    await start.getByRole('button', { name: 'Start the tenancy', exact: true }).click();
    await page.getByRole('article', { name: 'Tenancy from 1 Mar 2027: Emily Clarke', exact: true }).waitFor();
  });
});
