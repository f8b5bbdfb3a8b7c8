/**
 * The agency's administration pages in the console (docs/console.md "The agency's office:
 * administration pages"), in headless Chromium on PGlite with axe at 390 px and 1280 px on every
 * page: an administrator adds a role and gives it a permission, backs out of deleting it once and
 * then deletes it; publishes a notice, reads it as their own and deletes it; adds a webhook (its
 * secret shown once) and deletes it; adds a trade and a visit slot and saves the reporting
 * settings; adds a price and the agency's payment terms; sees the performance page's empty states
 * and their own sessions on the Account page; SysOps open the operations page. Each page is
 * reloaded and lands on the same page; each change is checked in the database.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgency, createBranch, createUser, TEST_PASSWORD, type TestApp } from '../helpers/app.ts';
import { BrowserSession, checkAtBothWidths, CHROMIUM, DESKTOP, reloadLands, serveConsole } from '../helpers/browser.ts';

const check = checkAtBothWidths;

/** Opens an administration page from the user menu (clicking the toggle again while the menu stays closed). */
async function openFromMenu(page: Page, label: string, heading: string): Promise<void> {
  const toggle = page.locator('.user-toggle');
  const link = page.locator('#user-panel').getByRole('link', { name: label, exact: true });
  // Until the link shows: a toggle click that lands while the menu is still opening closes it again.
  await expect
    .poll(
      async () => {
        if (await link.isVisible()) return true;
        if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
        return link.isVisible();
      },
      { timeout: 20_000, interval: 250 },
    )
    .toBe(true);
  await link.click();
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
}

const TITLE = CHROMIUM ? "The agency's administration pages in the console" : "The agency's administration pages in the console (skipped: Debian chromium is not installed)";

describe.skipIf(!CHROMIUM)(TITLE, () => {
  let t: TestApp;
  const session = new BrowserSession();
  let baseUrl: string;

  beforeAll(async () => {
    // Loopback webhook targets allowed (development mode): the sandbox resolves no public name.
    ({ t, baseUrl } = await serveConsole({ CARETAKER_WEBHOOKS_ALLOW_LOOPBACK: 'true' }));
    await session.launch();
  });
  afterAll(() => session.close(t));

  it('an administrator runs roles, notices, webhooks, lists and rules, the price list, reports and their account', async () => {
    const agency = await createAgency(t.db, 'Meanwood Lettings');
    const branch = await createBranch(t.db, agency.id, 'Meanwood');
    const admin = await createUser(t.db, { role: 'admin', agencyId: agency.id, branchId: branch.id, name: 'Mina Admin' });
    const page = await session.signedIn(baseUrl, admin.email, DESKTOP, { timeoutMs: 20_000 });

    // Roles: a custom role with one permission; deleting it is backed out of once, then done.
    await openFromMenu(page, 'Roles and permissions', 'Roles and permissions');
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Lettings assistant');
    await page.getByLabel('Level').fill('10');
    await page.getByRole('button', { name: 'Add role' }).click();
    await page.getByText('"Lettings assistant" added. Tick what it may do below.').waitFor();
    await page.getByRole('heading', { name: 'Change Lettings assistant' }).waitFor();
    await page.getByRole('checkbox').first().check();
    await page.getByRole('button', { name: 'Save role' }).click();
    await page.getByText(/"Lettings assistant" saved with 1 permissions\./).waitFor();
    const role = await t.db.selectFrom('roles').select(['id', 'name']).where('name', '=', 'Lettings assistant').executeTakeFirstOrThrow();
    expect(role.name).toBe('Lettings assistant');
    await check(page, 'office-roles');
    await reloadLands(page, 'Roles and permissions');
    await page.getByRole('button', { name: 'Delete: Lettings assistant' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Keep it' }).click();
    expect(await t.db.selectFrom('roles').select('id').where('id', '=', role.id).executeTakeFirst()).toBeDefined();
    await page.getByRole('button', { name: 'Delete: Lettings assistant' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete role' }).click();
    await page.getByText('"Lettings assistant" deleted.').waitFor();

    // Notices: published to the whole agency, shown as the admin's own, read, then deleted.
    await openFromMenu(page, 'Notices', 'Notices');
    await page.getByText('No notices yet.', { exact: false }).waitFor();
    await page.getByLabel('Title').fill('Office closed on Friday');
    await page.getByLabel('Message').fill('The office is closed for training; the on-call number works as usual.');
    await page.getByLabel('How urgent').selectOption('warning');
    await page.getByRole('button', { name: 'Publish notice' }).click();
    await page.getByText('"Office closed on Friday" published.').waitFor();
    await page.getByRole('heading', { name: 'Notices for you' }).waitFor();
    await check(page, 'office-notices');
    await page.getByRole('button', { name: 'Mark as read: Office closed on Friday' }).click();
    await page.getByRole('heading', { name: 'Notices for you' }).waitFor({ state: 'detached' });
    await reloadLands(page, 'Notices');
    await page.getByRole('button', { name: 'Delete: Office closed on Friday' }).first().click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete notice' }).click();
    await page.getByText('"Office closed on Friday" deleted.').waitFor();

    // Webhooks: added with its secret shown once, then deleted after a confirmation.
    await openFromMenu(page, 'Webhooks', 'Webhooks');
    await page.getByText('No webhooks yet.', { exact: false }).waitFor();
    await page.getByLabel('Address (https://)').fill('http://127.0.0.1:9/caretaker');
    await page.getByLabel('Events').fill('job.created, invoice.issued');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.getByText('Copy its signing secret now', { exact: false }).waitFor();
    expect(await t.db.selectFrom('webhook_endpoints').select('url').where('url', '=', 'http://127.0.0.1:9/caretaker').executeTakeFirst()).toBeDefined();
    await page.getByText('Signing secret:', { exact: false }).waitFor();
    await check(page, 'office-webhooks');
    await reloadLands(page, 'Webhooks');
    await page.getByRole('button', { name: 'Delete: http://127.0.0.1:9/caretaker' }).first().click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete webhook' }).click();
    await page.getByText('The webhook to http://127.0.0.1:9/caretaker was deleted.').waitFor();

    // Lists and rules: a trade, a visit slot, the reporting settings.
    await openFromMenu(page, 'Lists and rules', 'Lists and rules');
    await page.getByLabel('New trade').fill('Lift servicing');
    await page.getByRole('button', { name: 'Add trade' }).click();
    await page.getByText('"Lift servicing" added.', { exact: false }).waitFor();
    await page.getByLabel('Slot name').fill('Early evening');
    await page.getByLabel('From', { exact: true }).fill('17:00');
    await page.getByLabel('To', { exact: true }).fill('19:00');
    await page.getByRole('button', { name: 'Add slot' }).click();
    await page.getByText('"Early evening" saved.').waitFor();
    await page.getByLabel('A repair is a recall within (days)').fill('21');
    await page.getByRole('button', { name: 'Save reporting settings' }).click();
    await page.getByText('Reporting settings saved.').waitFor();
    await check(page, 'office-setup');
    await reloadLands(page, 'Lists and rules');
    await expect.poll(() => page.getByLabel('A repair is a recall within (days)').inputValue()).toBe('21');

    // The price list: a price, and 21 days' payment terms.
    await openFromMenu(page, 'Price list', 'Price list');
    await page.getByText('No prices yet.', { exact: false }).waitFor();
    await page.getByRole('textbox', { name: 'Work', exact: true }).fill('Tap washer replaced');
    await page.getByRole('textbox', { name: 'Price before VAT (£)', exact: true }).fill('45.50');
    await page.getByRole('button', { name: 'Add price' }).click();
    await page.getByText('"Tap washer replaced" added at £45.50 each.').waitFor();
    await page.getByLabel('Invoices are due after (days)').fill('21');
    await page.getByRole('button', { name: 'Save pricing settings' }).click();
    await page.getByText('Pricing settings saved.').waitFor();
    await check(page, 'office-pricing');
    await reloadLands(page, 'Price list');
    await expect.poll(() => page.getByLabel('Invoices are due after (days)').inputValue()).toBe('21');

    // Performance: empty states that say what to do.
    await openFromMenu(page, 'Performance', 'Performance');
    await page.getByText('No guided report yet.', { exact: false }).waitFor();
    await page.getByText('No report is e-mailed to you yet. Choose one below.').waitFor();
    await page.getByRole('button', { name: 'E-mail me this report' }).click();
    await page.getByText('Jobs register will be e-mailed to you every Monday.').waitFor();
    await check(page, 'office-reports');
    await reloadLands(page, 'Performance');

    // Account: where one is signed in.
    await openFromMenu(page, 'Account', 'Your account');
    await page.getByRole('heading', { name: 'Where you are signed in' }).waitFor();
    await page.getByText('(this one)', { exact: false }).waitFor();
    await check(page, 'office-account');
  });

  it('SysOps open the operations page', async () => {
    const sysops = await createUser(t.db, { role: 'sysops', name: 'Sid SysOps' });
    const page = await session.page(DESKTOP, { timeoutMs: 20_000 });
    // The first page's code arrives late (a slow connection): the user menu opened meanwhile stays
    // open when that page lands (the menu closes when one of its links is followed, not whenever
    // the address changes).
    let slow = false;
    await page.route('**/assets/*.js', async (route) => {
      if (slow) await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue();
    });
    await page.goto(`${baseUrl}/`);
    await page.getByLabel('E-mail address').fill(sysops.email);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    slow = true;
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.locator('.user-toggle').click();
    await page.getByRole('heading', { name: 'Agencies', level: 1 }).waitFor();
    slow = false;
    expect(page.url()).toMatch(/\/agencies$/);
    await expect.poll(() => page.locator('.user-toggle').getAttribute('aria-expanded')).toBe('true');
    await page.locator('#user-panel').getByRole('link', { name: 'Operations', exact: true }).click();
    await page.getByRole('heading', { name: 'Operations', level: 1 }).waitFor();
    await expect.poll(() => page.locator('.user-toggle').getAttribute('aria-expanded')).toBe('false');
    await page.getByRole('heading', { name: 'Service' }).waitFor();
    await page.getByText('No address is blocked.', { exact: false }).waitFor();
    await page.getByLabel('IP address or range').fill('203.0.113.7');
    await page.getByLabel('Why').fill('Password guessing');
    await page.getByRole('button', { name: 'Block', exact: true }).click();
    await page.getByText('203.0.113.7 blocked.').waitFor();
    await check(page, 'office-operations');
    await reloadLands(page, 'Operations');
    await page.getByRole('button', { name: 'Unblock 203.0.113.7' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Unblock' }).click();
    await page.getByText('203.0.113.7 unblocked.').waitFor();
  });
});
