/**
 * Creating and editing people and places in the console (docs/console.md "Creating and editing"),
 * in headless Chromium on PGlite: an administrator creates a contractor with two trades and edits
 * its phone, deactivates it after the confirmation dialog; creates a property (a bad postcode
 * first, shown beside the field; ticked as an HMO, which adds its HMO compliance items) and a
 * tenant living there; moves an agent to another branch.
 * Every form is checked with axe-core at phone (390 px) and desktop widths.
 */
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgency, createBranch, createUser, type TestApp } from '../helpers/app.ts';
import { axeViolations, BrowserSession, CHROMIUM, DESKTOP, PHONE, serveConsole } from '../helpers/browser.ts';

/** axe at phone and desktop widths (no violations of WCAG 2.2 A/AA), and no sideways scrolling on the phone. */
async function check(page: Page, name: string): Promise<void> {
  for (const [label, size] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    await page.setViewportSize(size);
    expect(await axeViolations(page), `${name} at ${label} width`).toEqual([]);
    if (label === 'phone') {
      const overflow = await page.evaluate(() => {
        const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
        return root.scrollWidth - root.clientWidth;
      });
      expect(overflow, `${name}: no sideways scroll at 390 px`).toBeLessThanOrEqual(0);
    }
  }
}

const TITLE = CHROMIUM ? 'creating and editing people in the console' : 'creating and editing people in the console (skipped: Debian chromium is not installed)';

describe.skipIf(!CHROMIUM)(TITLE, () => {
  let t: TestApp;
  const session = new BrowserSession();
  let baseUrl: string;

  beforeAll(async () => {
    ({ t, baseUrl } = await serveConsole());
    await session.launch();
  });
  afterAll(() => session.close(t));

  it('an administrator creates and edits a contractor, a property, a tenant and a user', async () => {
    const agency = await createAgency(t.db, 'Headingley Homes');
    const leeds = await createBranch(t.db, agency.id, 'Leeds');
    await createBranch(t.db, agency.id, 'York');
    const admin = await createUser(t.db, { role: 'admin', agencyId: agency.id, branchId: leeds.id, name: 'Ada Admin' });
    const agent = await createUser(t.db, { role: 'agent', agencyId: agency.id, branchId: leeds.id, name: 'Alex Agent' });

    const page = await session.signedIn(baseUrl, admin.email, DESKTOP, { timeoutMs: 20_000 });

    // A contractor with two trades, from the list's "New contractor" button.
    await page.goto(`${baseUrl}/contractors`);
    await page.getByRole('link', { name: 'New contractor' }).click();
    await page.getByRole('heading', { name: 'New contractor' }).waitFor();
    await page.getByRole('checkbox', { name: 'Plumbing' }).waitFor({ state: 'attached' });
    await check(page, 'new contractor');
    await page.getByLabel('Company name').fill('Pipe Dreams Ltd');
    await page.getByLabel('Contact name').fill('Pat Plumber');
    await page.getByLabel('E-mail address').fill('pat@pipedreams.example');
    await page.getByLabel('Phone', { exact: true }).fill('0113 496 0000');
    // Keyboard: the trades are ticked with the space bar.
    await page.getByRole('checkbox', { name: 'Plumbing' }).focus();
    await page.keyboard.press('Space');
    await page.getByText('Gas', { exact: true }).click();
    await page.getByLabel('Areas covered').fill('ls6, LS7');
    await page.getByLabel('Address line 1').fill('1 Kirkstall Road');
    await page.getByLabel('Town').fill('Leeds');
    await page.getByLabel('Postcode').fill('ls4 2aa');
    // The new record's read is held back 600 ms: until it arrives the edit page says it is loading,
    // instead of showing the blank form of /contractors/new, whose typing the record would replace.
    const record = /\/api\/contractors\/[0-9a-f-]{36}$/;
    const held = (route: Route) => (route.request().method() === 'GET' ? new Promise((r) => setTimeout(r, 600)).then(() => route.continue()) : route.continue());
    await page.route(record, held);
    await page.getByRole('button', { name: 'Create contractor' }).click();
    await page.getByText('Pipe Dreams Ltd created.').waitFor();
    await page.getByRole('heading', { name: 'Edit contractor' }).waitFor();
    await page.locator('p.loading').waitFor();
    expect(await page.getByLabel('Phone', { exact: true }).count()).toBe(0);
    await expect.poll(() => page.getByLabel('Phone', { exact: true }).inputValue(), { timeout: 10_000 }).toBe('0113 496 0000');
    await page.unroute(record, held);
    const made = await t.db.selectFrom('contractors').selectAll().where('company_name', '=', 'Pipe Dreams Ltd').executeTakeFirstOrThrow();
    const trades = await t.db
      .selectFrom('contractor_trades')
      .innerJoin('trades', 'trades.id', 'contractor_trades.trade_id')
      .select('trades.code')
      .where('contractor_trades.contractor_id', '=', made.id)
      .orderBy('trades.code')
      .execute();
    expect(trades.map((r) => r.code)).toEqual(['gas', 'plumbing']);

    // Its phone edited; a bad phone first, told beside the field.
    await page.getByLabel('Phone', { exact: true }).fill('call me');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Please check the phone number', { exact: false }).waitFor();
    await page.getByLabel('Phone', { exact: true }).fill('0113 496 0999');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Changes saved.').waitFor();
    expect((await t.db.selectFrom('contractors').select('phone').where('id', '=', made.id).executeTakeFirstOrThrow()).phone).toBe('0113 496 0999');
    await check(page, 'edit contractor');

    // Deactivating asks first; going back leaves it active.
    await page.getByRole('button', { name: 'Deactivate contractor' }).click();
    await page.getByRole('alertdialog').getByText('Deactivate Pipe Dreams Ltd?').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('alertdialog').waitFor({ state: 'detached' });
    expect((await t.db.selectFrom('contractors').select('active').where('id', '=', made.id).executeTakeFirstOrThrow()).active).toBe(true);

    // The list links to the edit page.
    await page.goto(`${baseUrl}/contractors`);
    await page.getByRole('link', { name: 'Edit Pipe Dreams Ltd' }).click();
    await page.getByRole('heading', { name: 'Edit contractor' }).waitFor();
    expect(await page.getByLabel('Phone', { exact: true }).inputValue()).toBe('0113 496 0999');

    // A property: a bad postcode is told beside the postcode field, then a good one is accepted.
    await page.goto(`${baseUrl}/addresses`);
    await page.getByRole('link', { name: 'New property' }).click();
    await page.getByRole('heading', { name: 'New property' }).waitFor();
    await page.getByLabel('Address line 1').fill('12 Hyde Park Road');
    await page.getByLabel('Address line 2').fill('Flat 2');
    await page.getByLabel('Town').fill('Leeds');
    await page.getByLabel('Postcode').fill('NOT A CODE');
    await page.getByLabel('Branch').selectOption({ label: 'Leeds' });
    await page.getByRole('checkbox', { name: 'House in multiple occupation (HMO)' }).check();
    await page.getByRole('button', { name: 'Create property' }).click();
    const postcodeError = page.locator('.field', { has: page.getByLabel('Postcode') }).locator('.field-error');
    await postcodeError.waitFor();
    expect(await postcodeError.textContent()).toBe('Please check the postcode (a UK postcode such as LS6 3HN): it is missing or not valid.');
    expect(await page.getByLabel('Postcode').getAttribute('aria-invalid')).toBe('true');
    await check(page, 'new property with a bad postcode');
    await page.getByLabel('Postcode').fill('ls6 1ab');
    await page.getByRole('button', { name: 'Create property' }).click();
    // The register is derived from what the property is: the HMO items beside a dwelling's own.
    const created = page.getByText(/^Flat 2, 12 Hyde Park Road, Leeds LS6 1AB created\. Marked as an HMO; the property has \d+ compliance items\.$/);
    await created.waitFor();
    const property = await t.db.selectFrom('addresses').selectAll().where('postcode', '=', 'LS6 1AB').executeTakeFirstOrThrow();
    const onRegister = await t.db.selectFrom('compliance_items').innerJoin('compliance_item_types as t', 't.id', 'compliance_items.type_id').where('compliance_items.address_id', '=', property.id).select('t.code').execute();
    expect(onRegister.map((r) => r.code)).toEqual(expect.arrayContaining(['hmo_fire_risk', 'hmo_licence']));
    expect(await created.textContent()).toContain(`the property has ${onRegister.length} compliance items.`);
    expect(property.branch_id).toBe(leeds.id);
    // The HMO box sent the flag: the API's property has it, with the HMO items on the register.
    const read = async (path: string) => (await page.request.get(`${baseUrl}${path}`)).json();
    expect((await read(`/api/addresses/${property.uuid}`)).data.is_hmo).toBe(true);
    expect((await read(`/api/compliance?address_uuid=${property.uuid}`)).data.map((i: { type_code: string }) => i.type_code).sort()).toEqual(onRegister.map((r) => r.code).sort());
    expect(await page.getByRole('checkbox', { name: 'House in multiple occupation (HMO)' }).isChecked()).toBe(true);
    await check(page, 'edit property, an HMO');

    // A tenant living there, the property picked by postcode.
    await page.goto(`${baseUrl}/tenants`);
    await page.getByRole('link', { name: 'New tenant' }).click();
    await page.getByRole('heading', { name: 'New tenant' }).waitFor();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Terry Tenant');
    await page.getByLabel('E-mail address').fill('terry@example.test');
    await page.getByLabel('Phone', { exact: true }).fill('07700 900123');
    await page.getByRole('combobox', { name: 'Property' }).fill('ls61');
    await page.getByRole('option', { name: /12 Hyde Park Road/ }).click();
    await check(page, 'new tenant');
    await page.getByRole('button', { name: 'Create tenant' }).click();
    await page.getByText('Terry Tenant created, living at Flat 2, 12 Hyde Park Road, Leeds LS6 1AB.').waitFor();
    await page.getByRole('heading', { name: 'Properties' }).waitFor();
    await page.getByRole('button', { name: 'Unlink Flat 2, 12 Hyde Park Road, Leeds LS6 1AB' }).waitFor();
    await check(page, 'edit tenant');
    const tenant = await t.db.selectFrom('tenants').selectAll().where('name', '=', 'Terry Tenant').executeTakeFirstOrThrow();
    expect(tenant.phone).toBe('07700 900123');
    const links = await t.db.selectFrom('tenant_addresses').select('address_id').where('tenant_id', '=', tenant.id).execute();
    expect(links.map((l) => l.address_id)).toEqual([property.id]);

    // The agent moves from Leeds to York.
    await page.goto(`${baseUrl}/users`);
    await page.getByRole('link', { name: 'Edit Alex Agent' }).click();
    await page.getByRole('heading', { name: 'Edit user' }).waitFor();
    await page.getByLabel('Role').locator('option', { hasText: 'Agent' }).first().waitFor({ state: 'attached' });
    await check(page, 'edit user');
    await page.getByLabel('Branch').selectOption({ label: 'York' });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Changes saved.').waitFor();
    const moved = await t.db
      .selectFrom('users')
      .innerJoin('branches', 'branches.id', 'users.branch_id')
      .select('branches.name')
      .where('users.id', '=', agent.id)
      .executeTakeFirstOrThrow();
    expect(moved.name).toBe('York');
    expect(await page.getByLabel('Branch').inputValue()).not.toBe('');
  });
});
