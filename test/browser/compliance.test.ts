/**
 * The compliance page's writes in headless Chromium (docs/compliance.md "In the console"): an
 * agency admin finds the property's register derived from what it is (a gas safety record among
 * its missing items; adding one again is answered in words), records its certificate and sees
 * it turn valid with its expiry; creates a planned maintenance schedule ("every 12 months", 28
 * days ahead, a contractor), edits it to every 24 months, and deletes it after confirming in the
 * dialog, leaving the empty state. Checked with axe-core (WCAG 2.2 A and AA) at 1280 px and at
 * 390 px, where the tables become cards.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, addMonths, humanDate, londonDate } from '../../src/lib/london-time.ts';
import { createAgency, createBranch, createUser, type TestApp } from '../helpers/app.ts';
import { axeViolations, BrowserSession, CHROMIUM, serveConsole } from '../helpers/browser.ts';
import { insertAddress, insertContractor } from '../helpers/factories.ts';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

/** axe at 1280 px and at 390 px; back to desktop after. */
async function checkBoth(page: Page, name: string): Promise<void> {
  for (const [size, viewport] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
    await page.setViewportSize(viewport);
    expect(await axeViolations(page), `${name} ${size}`).toEqual([]);
  }
}

const TITLE = CHROMIUM ? 'compliance writes in the console' : 'compliance writes in the console (skipped: Debian chromium is not installed)';

describe.skipIf(!CHROMIUM)(TITLE, () => {
  let t: TestApp;
  const session = new BrowserSession();
  let page: Page;
  let baseUrl: string;
  const today = londonDate(new Date());

  beforeAll(async () => {
    ({ t, baseUrl } = await serveConsole());
    const agency = await createAgency(t.db, 'Northgate Lettings');
    const branch = await createBranch(t.db, agency.id, 'Leeds');
    await insertAddress(t.db, { agencyId: agency.id, branchId: branch.id, line1: '28 Blenheim Terrace', postcode: 'LS2 9XS' });
    await insertContractor(t.db, agency.id, 'Calder Gas Services Ltd');
    const admin = await createUser(t.db, { role: 'admin', agencyId: agency.id, name: 'Ada Admin' });
    await session.launch();
    page = await session.signedIn(baseUrl, admin.email, DESKTOP, { timeoutMs: 20_000 });
  }, 300_000);
  afterAll(() => session.close(t));

  it('records a gas safety certificate and the item turns valid', async () => {
    await page.goto(`${baseUrl}/compliance`);
    // The register is derived from what the property is (docs/compliance.md "What a property
    // needs"): a dwelling with gas needs a gas safety record, an EICR, an EPC and more, missing.
    const items = page.getByRole('region', { name: 'Compliance items' });
    await items.getByRole('button', { name: /^Record certificate: Gas safety record/ }).waitFor();
    await items.getByRole('cell', { name: 'Missing' }).first().waitFor();
    await page.getByText('No schedules yet. Add one to raise the gas safety check a month before it is due.').waitFor();
    await page.getByText('No custom types yet.', { exact: false }).waitFor();
    await checkBoth(page, 'derived compliance register');

    // Adding the item by hand again keeps the one the register derived, and says so.
    await page.getByRole('combobox', { name: /Property for the item/ }).fill('LS2 9');
    await page.getByRole('option', { name: /28 Blenheim Terrace/ }).click();
    await page.getByLabel('Compliance item', { exact: true }).selectOption('gas_safety');
    await page.getByRole('button', { name: 'Add item' }).click();
    await page.getByRole('status').getByText('already has a Gas safety record item.', { exact: false }).waitFor();
    expect(await t.db.selectFrom('compliance_items').innerJoin('compliance_item_types', 'compliance_item_types.id', 'compliance_items.type_id').where('compliance_item_types.code', '=', 'gas_safety').select('compliance_items.id').execute()).toHaveLength(1);

    // A date in the future is refused in words before anything is sent.
    await items.getByRole('button', { name: /^Record certificate: Gas safety record/ }).click();
    const form = page.getByRole('region', { name: /Record a certificate: Gas safety record/ });
    await form.getByLabel('Issue date').fill(addDays(today, 3));
    await form.getByRole('button', { name: 'Record certificate' }).click();
    await form.getByText('The issue date cannot be in the future.').waitFor();
    await form.getByLabel('Issue date').fill(today);
    await form.getByLabel('Certificate number').fill('CP12-448120');
    await form.getByLabel('Issued by (contractor)').selectOption({ label: 'Calder Gas Services Ltd' });
    await checkBoth(page, 'certificate form');
    await form.getByRole('button', { name: 'Record certificate' }).click();
    const expires = humanDate(addMonths(today, 12));
    await page.getByRole('status').getByText(`Certificate recorded: Gas safety record at 28 Blenheim Terrace, Leeds LS2 9XS is now valid, expiring ${expires}.`).waitFor();
    await items.getByRole('cell', { name: 'Valid', exact: true }).waitFor();
    await items.getByRole('cell', { name: expires }).waitFor();
    await items.getByRole('cell', { name: 'Calder Gas Services Ltd' }).waitFor();
    const cert = await t.db.selectFrom('compliance_certificates').select(['reference', 'issued_on']).executeTakeFirstOrThrow();
    expect(cert.reference).toBe('CP12-448120');
  });

  it('creates a schedule, edits it and deletes it after confirming', async () => {
    await page.getByRole('button', { name: 'Add a schedule' }).click();
    const form = page.getByRole('region', { name: 'Add a schedule' });
    await form.getByRole('button', { name: 'Add schedule' }).click();
    await form.getByText('Say what the work is', { exact: false }).waitFor();
    await form.getByText('Pick a property, or a compliance item', { exact: false }).waitFor();
    await form.getByLabel('What the work is').fill('Annual gas safety check');
    await form.getByRole('combobox', { name: /One property/ }).fill('Blenheim');
    await page.getByRole('option', { name: /28 Blenheim Terrace/ }).click();
    await form.getByLabel('Compliance item it renews').selectOption('gas_safety');
    await expect.poll(() => form.getByLabel('Every').inputValue()).toBe('12');
    await expect.poll(() => form.getByLabel('Unit').inputValue()).toBe('months');
    const due = addDays(today, 60);
    await form.getByLabel('First due on').fill(due);
    await form.getByLabel('Raise the job this many days before').fill('28');
    await form.getByLabel('Contractor').selectOption({ label: 'Calder Gas Services Ltd' });
    await checkBoth(page, 'schedule form');
    await form.getByRole('button', { name: 'Add schedule' }).click();
    await page.getByRole('status').getByText(`Schedule "Annual gas safety check" added: first due ${humanDate(due)}, its job raised ${humanDate(addDays(due, -28))}.`).waitFor();
    const table = page.getByRole('region', { name: 'Planned maintenance schedules' });
    await table.getByRole('cell', { name: 'every 12 months, raised 28 days before' }).waitFor();
    await table.getByText(`${humanDate(due)} (raised ${humanDate(addDays(due, -28))})`).waitFor();
    await table.getByRole('cell', { name: 'Calder Gas Services Ltd' }).waitFor();
    let stored = await t.db.selectFrom('maintenance_schedules').select(['rrule', 'lead_days', 'retired_at']).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ rrule: 'FREQ=MONTHLY;INTERVAL=12', lead_days: 28, retired_at: null });

    // Edit: every 24 months, 35 days ahead.
    await table.getByRole('button', { name: 'Edit: Annual gas safety check' }).click();
    const edit = page.getByRole('region', { name: 'Edit "Annual gas safety check"' });
    await edit.getByLabel('Every').fill('24');
    await edit.getByLabel('Raise the job this many days before').fill('35');
    await edit.getByRole('button', { name: 'Save schedule' }).click();
    await page.getByRole('status').getByText('Schedule "Annual gas safety check" saved: every 24 months, raised 35 days before.').waitFor();
    await table.getByRole('cell', { name: 'every 24 months, raised 35 days before' }).waitFor();
    stored = await t.db.selectFrom('maintenance_schedules').select(['rrule', 'lead_days', 'retired_at']).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ rrule: 'FREQ=MONTHLY;INTERVAL=24', lead_days: 35, retired_at: null });

    // On a phone the schedule is a card with its actions.
    await page.setViewportSize(PHONE);
    const card = page.locator('.cards .card', { hasText: 'Annual gas safety check' });
    await card.getByText('every 24 months, raised 35 days before').waitFor();
    await page.setViewportSize(DESKTOP);

    // Delete: the dialog first; backing out keeps it, confirming retires it.
    await table.getByRole('button', { name: 'Delete: Annual gas safety check' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete the schedule "Annual gas safety check"?' });
    await dialog.waitFor();
    expect(await axeViolations(page), 'delete dialog').toEqual([]);
    await dialog.getByRole('button', { name: 'Keep it' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await t.db.selectFrom('maintenance_schedules').select('retired_at').executeTakeFirstOrThrow()).retired_at).toBeNull();
    await table.getByRole('button', { name: 'Delete: Annual gas safety check' }).click();
    await dialog.getByRole('button', { name: 'Delete schedule' }).click();
    await page.getByRole('status').getByText('Schedule "Annual gas safety check" deleted.').waitFor();
    await page.getByText('No schedules yet. Add one to raise the gas safety check a month before it is due.').waitFor();
    expect((await t.db.selectFrom('maintenance_schedules').select('retired_at').executeTakeFirstOrThrow()).retired_at).not.toBeNull();
    await checkBoth(page, 'after delete');
  });

  it('adds a custom type and retires it', async () => {
    await page.getByLabel('Name of the type').fill('PAT testing');
    await page.getByLabel('Renewed every (months)').fill('12');
    await page.getByLabel('Document that proves it').fill('PAT test report');
    await page.getByRole('button', { name: 'Add type' }).click();
    await page.getByRole('status').getByText('"PAT testing" added.', { exact: false }).waitFor();
    const types = page.getByRole('region', { name: 'Custom compliance types' });
    await types.getByRole('cell', { name: 'every 12 months' }).waitFor();
    await types.getByRole('button', { name: 'Retire: PAT testing' }).click();
    await page.getByRole('alertdialog', { name: 'Retire "PAT testing"?' }).getByRole('button', { name: 'Retire type' }).click();
    await page.getByRole('status').getByText('"PAT testing" retired.').waitFor();
    await page.getByText('No custom types yet.', { exact: false }).waitFor();
    const row = await t.db.selectFrom('compliance_item_types').select(['code', 'retired_at']).where('code', '=', 'pat_testing').executeTakeFirstOrThrow();
    expect(row.retired_at).not.toBeNull();
  });
});
