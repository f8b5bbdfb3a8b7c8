/**
 * The agency's office in the console (docs/console.md "Agencies and agency settings", "Money on
 * the console", "Inviting people with their record"), in headless Chromium on PGlite, with axe at
 * 390 px and 1280 px on every page: SysOps land on the agencies list and create an agency with
 * every field; its administrator sets the agency's settings and invites a contractor from the
 * contractor's record; an administrator records a part payment on an invoice's own page and opens
 * its PDF. Each page is reloaded and lands on the same page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgency, createBranch, createUser, userClient, type TestApp } from '../helpers/app.ts';
import { BrowserSession, checkAtBothWidths, CHROMIUM, DESKTOP, reloadLands, serveConsole } from '../helpers/browser.ts';
import { insertContractor, insertJob } from '../helpers/factories.ts';

const check = checkAtBothWidths;

const TITLE = CHROMIUM ? "The agency's office in the console" : "The agency's office in the console (skipped: Debian chromium is not installed)";

describe.skipIf(!CHROMIUM)(TITLE, () => {
  let t: TestApp;
  const session = new BrowserSession();
  let baseUrl: string;

  beforeAll(async () => {
    ({ t, baseUrl } = await serveConsole());
    await session.launch();
  });
  afterAll(() => session.close(t));

  it('SysOps land on the agencies and create an agency with every field', async () => {
    const sysops = await createUser(t.db, { role: 'sysops', name: 'Sam SysOps' });
    const page = await session.signedIn(baseUrl, sysops.email, DESKTOP, { timeoutMs: 20_000 });
    await page.waitForURL(/\/agencies$/);
    await page.getByRole('heading', { name: 'Agencies', level: 1 }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Agencies' }).waitFor();
    await check(page, 'sysops-agencies');

    await page.getByRole('link', { name: 'New agency' }).click();
    await page.getByRole('heading', { name: 'New agency', level: 1 }).waitFor();
    await page.getByLabel('Trading name').fill('Kirkstall Lettings');
    await page.getByLabel('Legal name').fill('Kirkstall Lettings Ltd');
    await page.getByLabel('Company number').fill('09876543');
    await page.getByLabel('VAT registration number').fill('GB123456789');
    await page.getByLabel('Address line 1').fill('1 Abbey Road');
    await page.getByLabel('Town', { exact: true }).fill('Leeds');
    await page.getByLabel('Postcode', { exact: true }).fill('LS5 3HN');
    await page.getByLabel('Contact e-mail').fill('office@kirkstall.example');
    await page.getByLabel('Contact phone').fill('0113 496 0000');
    await page.getByLabel('Bank holidays of').selectOption('scotland');
    await page.getByLabel('Open on Saturday').check();
    await page.getByLabel('Saturday opens at').fill('10:00');
    await page.getByLabel('Saturday closes at').fill('13:00');
    await page.getByLabel('Landlord approval limit (£)').fill('250');
    await page.getByLabel('Invoice terms (days)').fill('14');
    await page.getByLabel('Check property postcodes at postcodes.io', { exact: false }).check();
    await page.getByLabel('First branch').fill('Kirkstall');
    await page.getByLabel("Administrator's name").fill('Kit Admin');
    await page.getByLabel("Administrator's e-mail").fill('kit@kirkstall.example');
    await check(page, 'sysops-agency-new');
    await page.getByRole('button', { name: 'Create agency' }).click();
    await page.getByText('Kirkstall Lettings created; an invitation was e-mailed to kit@kirkstall.example.').waitFor();
    await page.getByRole('heading', { name: 'Kirkstall Lettings', level: 1 }).waitFor();
    const row = await t.db.selectFrom('agencies').selectAll().where('name', '=', 'Kirkstall Lettings').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ legal_name: 'Kirkstall Lettings Ltd', company_number: '09876543', uk_region: 'scotland', registered_postcode: 'LS5 3HN' });
    await check(page, 'sysops-agency');
    await reloadLands(page, 'Kirkstall Lettings');

    // Suspended with a reason, then reactivated.
    await page.getByRole('button', { name: 'Suspend' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByLabel('Reason (kept on the agency, shown to SysOps)').fill('Unpaid subscription');
    await dialog.getByRole('button', { name: 'Suspend' }).click();
    await page.getByText('Suspended: its people cannot sign in until it is reactivated.').waitFor();
    await page.getByRole('button', { name: 'Reactivate' }).click();
    // Exact: the suspension's sentence ends in "reactivated." too, and a substring match would not wait for the answer.
    await page.getByText('Reactivated.', { exact: true }).waitFor();
    expect((await t.db.selectFrom('agencies').select('suspended_at').where('id', '=', row.id).executeTakeFirstOrThrow()).suspended_at).toBeNull();
  });

  it('an administrator sets the agency settings and invites a contractor from its record', async () => {
    const agency = await createAgency(t.db, 'Headingley Homes');
    const leeds = await createBranch(t.db, agency.id, 'Leeds');
    const admin = await createUser(t.db, { role: 'admin', agencyId: agency.id, branchId: leeds.id, name: 'Ada Admin' });
    const firm = await insertContractor(t.db, agency.id, 'Fletcher Plumbing');
    const page = await session.signedIn(baseUrl, admin.email, DESKTOP, { timeoutMs: 20_000 });

    await page.goto(`${baseUrl}/settings`);
    await page.getByRole('heading', { name: 'Agency settings', level: 1 }).waitFor();
    await page.getByLabel('Landlord approval limit (£)').fill('300');
    await page.getByLabel('VAT registration number').fill('GB987654321');
    await page.getByLabel('Company number').fill('SC123456');
    await page.getByLabel('Bank holidays of').selectOption('northern-ireland');
    await page.getByLabel('Friday closes at').fill('16:00');
    await check(page, 'admin-agency-settings');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    const saved = await t.db.selectFrom('agencies').selectAll().where('id', '=', agency.id).executeTakeFirstOrThrow();
    expect(saved).toMatchObject({ default_approval_limit_pence: 30_000, company_number: 'SC123456', uk_region: 'northern-ireland' });
    await reloadLands(page, 'Agency settings');
    expect(await page.getByLabel('Landlord approval limit (£)').inputValue()).toBe('300.00');

    // The role list holds only roles an administrator may give.
    await page.goto(`${baseUrl}/users`);
    await page.getByRole('heading', { name: 'Invite someone' }).waitFor();
    await page.locator('#invite-role option[value="agent"]').waitFor({ state: 'attached' });
    const offered = await page.locator('#invite-role option').allTextContents();
    expect(offered).not.toEqual(expect.arrayContaining(['SysOps']));
    expect(offered.some((o) => /sysops|^api$|landlord/i.test(o))).toBe(false);

    // "Invite to the app" on the contractor's record.
    await page.goto(`${baseUrl}/contractors/${firm.uuid}/edit`);
    await page.getByRole('link', { name: 'Invite to the app' }).click();
    await page.getByRole('heading', { name: 'Invite a user', level: 1 }).waitFor();
    expect(await page.locator('#user-role').inputValue()).toBe('contractor');
    await page.locator('#user-record option', { hasText: 'Fletcher Plumbing' }).waitFor({ state: 'attached' });
    expect(await page.locator('#user-record').inputValue()).toBe(firm.uuid);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Fred Fletcher');
    await page.getByRole('textbox', { name: 'E-mail address', exact: true }).fill('fred@fletcher.example');
    await check(page, 'admin-invite-contractor');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText('Invitation sent to fred@fletcher.example.').waitFor();
    const user = await t.db.selectFrom('users').select(['contractor_id', 'status']).where('email', '=', 'fred@fletcher.example').executeTakeFirstOrThrow();
    expect(user).toEqual({ contractor_id: firm.id, status: 'invited' });
  });

  it('an administrator records a part payment on the invoice page and opens the PDF', async () => {
    const agency = await createAgency(t.db, 'Meanwood Lets');
    const branch = await createBranch(t.db, agency.id, 'Meanwood');
    const firm = await insertContractor(t.db, agency.id, 'Roberts Roofing');
    const job = await insertJob(t.db, { agency_id: agency.id, branch_id: branch.id, contractor_id: firm.id, status_id: 7, completed_at: new Date() });
    // The particulars an invoice needs at issue (docs/money.md): the supplier's and the agency's addresses.
    await t.db.updateTable('contractors').set({ address_line1: '3 Mill Yard', address_town: 'Leeds', address_postcode: 'LS6 4AB' }).where('id', '=', firm.id).execute();
    await t.db.updateTable('agencies').set({ registered_line1: '1 Wellington Street', registered_town: 'Leeds', registered_postcode: 'LS1 4DL' }).where('id', '=', agency.id).execute();
    const contractor = await userClient(t, { role: 'contractor', agencyId: agency.id, contractorId: firm.id });
    const today = new Date().toLocaleDateString('en-CA', { timeZone: 'Europe/London' });
    const draft = await contractor.client.post('/api/invoices', {
      job_uuid: job.uuid,
      contractor_reference: 'RR-101',
      supplier_invoice_date: today,
      lines: [{ description: 'Ridge tiles', quantity: 1, unit_price_pence: 10_000, vat_rate: 'standard' }],
    });
    expect(draft.statusCode, draft.body).toBe(201);

    // The draft opens from the list and is issued on its own page.
    const admin = await createUser(t.db, { role: 'admin', agencyId: agency.id, branchId: branch.id, name: 'Mo Admin' });
    const page = await session.signedIn(baseUrl, admin.email, DESKTOP, { timeoutMs: 20_000 });
    await page.goto(`${baseUrl}/invoices`);
    await page.getByRole('link', { name: 'Draft invoice' }).first().click();
    await page.getByRole('heading', { name: 'Draft invoice', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Issue', exact: true }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Issue invoice' }).click();
    await page.getByRole('heading', { name: /^INV-/, level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Record a payment' }).waitFor();
    await check(page, 'admin-invoice');
    await page.getByLabel('Amount in pounds', { exact: true }).fill('40');
    await page.getByLabel('Method').selectOption('cheque');
    await page.getByLabel('Reference (optional)').fill('Cheque 000123');
    await page.getByRole('button', { name: 'Record payment' }).click();
    await page.getByText('Payment of £40.00 recorded.').waitFor();
    await page.getByText(/£40\.00 on .* by cheque \(Cheque 000123\)/).waitFor();
    await page.getByText('Part paid', { exact: true }).waitFor();
    const payment = await t.db.selectFrom('payments').select(['amount_pence', 'method']).executeTakeFirstOrThrow();
    expect(payment).toEqual({ amount_pence: 4_000, method: 'cheque' });
    await check(page, 'admin-invoice-part-paid');
    await reloadLands(page, /^INV-/);

    // The PDF opens from its link with the session cookie.
    const href = await page.getByRole('link', { name: 'Open the PDF' }).getAttribute('href');
    const pdf = await page.request.get(`${baseUrl}${href}`);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toContain('application/pdf');
  });
});
