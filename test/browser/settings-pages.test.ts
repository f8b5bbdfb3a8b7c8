/**
 * SLA rules and message templates in the console (docs/console.md "SLA rules and message
 * templates"), in headless Chromium on PGlite: an administrator adds an SLA rule from the user
 * menu, sees it in words, changes it to working days, backs out of deleting it once (the rule
 * stays in the database) and then deletes it; saves the agency's at-risk share; edits an e-mail
 * template (a broken subject told beside the field), previews it (the rendered subject shows),
 * saves it as version 1 and goes back to the built-in text (version 2). Every page is checked with
 * photographed into docs/console/*.png.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgency, createBranch, createUser, type TestApp } from '../helpers/app.ts';
import { BrowserSession, checkAtBothWidths, CHROMIUM, DESKTOP, serveConsole } from '../helpers/browser.ts';

const check = checkAtBothWidths;

/**
 * Opens an administration page from the user menu. The toggle is clicked again while the menu is
 * not open: under load the first click can land while the shell re-renders after sign-in, which
 * leaves the menu closed.
 */
async function openFromMenu(page: Page, label: string): Promise<void> {
  const toggle = page.locator('.user-toggle');
  await expect
    .poll(
      async () => {
        if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
        return toggle.getAttribute('aria-expanded');
      },
      { timeout: 20_000, interval: 250 },
    )
    .toBe('true');
  await page.locator('#user-panel').getByRole('link', { name: label, exact: true }).click();
}

const TITLE = CHROMIUM
  ? 'SLA rules and message templates in the console'
  : 'SLA rules and message templates in the console (skipped: Debian chromium is not installed)';

describe.skipIf(!CHROMIUM)(TITLE, () => {
  let t: TestApp;
  const session = new BrowserSession();
  let baseUrl: string;

  beforeAll(async () => {
    ({ t, baseUrl } = await serveConsole());
    await session.launch();
  });
  afterAll(() => session.close(t));

  it('an administrator adds, changes and deletes an SLA rule and edits, previews and saves a message template', async () => {
    const agency = await createAgency(t.db, 'Headingley Homes');
    const leeds = await createBranch(t.db, agency.id, 'Leeds');
    await createBranch(t.db, agency.id, 'York');
    const admin = await createUser(t.db, { role: 'admin', agencyId: agency.id, branchId: leeds.id, name: 'Ada Admin' });
    const page = await session.signedIn(baseUrl, admin.email, DESKTOP, { timeoutMs: 20_000 });

    // SLA rules, from the user menu: none yet, the empty state says what to do.
    await openFromMenu(page, 'SLA rules');
    await page.getByRole('heading', { name: 'SLA rules', level: 1 }).waitFor();
    await page.getByText('No SLA rules yet.', { exact: false }).waitFor();
    await page.getByLabel('Branch').locator('option', { hasText: 'York' }).waitFor({ state: 'attached' });
    await page.getByRole('heading', { name: 'Agency SLA settings' }).waitFor();
    await page.getByLabel('Monday opens').waitFor();
    expect(await page.getByLabel('Monday opens').inputValue()).toBe('09:00');
    await check(page, 'admin-sla-rules-empty');

    // A rule: emergencies in Leeds attended within 4 hours of being reported.
    await page.getByLabel('Branch').selectOption({ label: 'Leeds' });
    await page.getByLabel('Priority').selectOption({ label: '1 Emergency' });
    await page.getByLabel('To status').selectOption({ label: 'In progress' });
    await page.getByLabel('The clock stops').selectOption({ label: 'When it was attended' });
    await page.getByLabel('How time counts').selectOption({ label: 'Hours, round the clock' });
    await page.getByLabel('Allowed time in hours').fill('4');
    const words =
      'Priority 1 (Emergency) jobs of every type in Leeds must be attended within 4 hours of being reported (watched from Reported to In progress).';
    await page.locator('.rule-preview', { hasText: words }).waitFor();
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByText(`Rule added: ${words}`).waitFor();
    await page.getByRole('region', { name: 'SLA rules' }).getByRole('cell', { name: words }).waitFor();
    await page.getByRole('cell', { name: '4 hours', exact: true }).waitFor();
    const rule = await t.db.selectFrom('branch_sla_rules').selectAll().where('branch_id', '=', leeds.id).executeTakeFirstOrThrow();
    expect([rule.calendar, rule.response_hours, rule.job_priority, rule.date_field_to_track]).toEqual(['calendar_hours', 4, 1, 'attended_at']);
    await check(page, 'admin-sla-rules');

    // Changed to two working days.
    await page.getByRole('button', { name: 'Change Leeds, priority 1, Reported to In progress' }).click();
    await page.getByRole('heading', { name: 'Change a rule' }).waitFor();
    expect(await page.getByLabel('Allowed time in hours').inputValue()).toBe('4');
    await page.getByLabel('How time counts').selectOption({ label: 'Working days (weekends and bank holidays skipped)' });
    await page.getByLabel('Allowed time in days').fill('2');
    await page.getByRole('button', { name: 'Save rule' }).click();
    await page
      .getByText('Rule changed: Priority 1 (Emergency) jobs of every type in Leeds must be attended within 2 working days of being reported', { exact: false })
      .waitFor();
    await page.getByRole('cell', { name: '2 working days', exact: true }).waitFor();
    const changed = await t.db.selectFrom('branch_sla_rules').selectAll().where('uuid', '=', rule.uuid).executeTakeFirstOrThrow();
    expect([changed.calendar, changed.minimum_response_days, changed.response_hours]).toEqual(['working_days', 2, null]);

    // Deleting asks first; backing out keeps the rule.
    const remove = page.getByRole('button', { name: 'Delete Leeds, priority 1, Reported to In progress' });
    await remove.click();
    await page.getByRole('alertdialog').getByText('Delete this SLA rule?').waitFor();
    await check(page, 'admin-sla-rule-delete-confirm');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Keep the rule' }).click();
    await page.getByRole('alertdialog').waitFor({ state: 'detached' });
    expect((await t.db.selectFrom('branch_sla_rules').select('deleted_at').where('uuid', '=', rule.uuid).executeTakeFirstOrThrow()).deleted_at).toBeNull();
    await remove.click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete rule' }).click();
    await page.getByText('Rule deleted.').waitFor();
    await page.getByText('No SLA rules yet.', { exact: false }).waitFor();
    expect((await t.db.selectFrom('branch_sla_rules').select('deleted_at').where('uuid', '=', rule.uuid).executeTakeFirstOrThrow()).deleted_at).not.toBeNull();

    // The agency's at-risk share.
    await page.getByLabel('At risk after (% of the allowed time)').fill('80');
    await page.getByRole('button', { name: 'Save SLA settings' }).click();
    await page.getByText('SLA settings saved.', { exact: false }).waitFor();
    expect((await t.db.selectFrom('agencies').select('sla_at_risk_percent').where('id', '=', agency.id).executeTakeFirstOrThrow()).sla_at_risk_percent).toBe(
      80,
    );

    // Message templates, from the user menu.
    await openFromMenu(page, 'Message templates');
    await page.getByRole('heading', { name: 'Message templates', level: 1 }).waitFor();
    const edit = page.getByRole('link', { name: 'Edit E-mail: To the tenant: their report was received.' });
    await edit.waitFor();
    await check(page, 'admin-templates');
    await edit.click();
    await page.getByRole('heading', { name: 'Edit message template' }).waitFor();
    const subject = page.getByRole('textbox', { name: 'Subject' });
    await subject.waitFor();
    expect(await subject.inputValue()).toBe('We received your repair request {{ job.reference }}');
    await page.getByText('No saved versions yet', { exact: false }).waitFor();

    // A broken subject is told beside the field.
    await subject.fill('Your repair {{ job.reference');
    await page.getByRole('button', { name: 'Preview' }).click();
    const subjectError = page.locator('.field', { has: subject }).locator('.field-error');
    await subjectError.waitFor();
    expect(await subjectError.textContent()).toMatch(/^This text cannot be used: /);

    // Previewed with the sample values, then saved as version 1.
    await subject.fill('Your repair {{ job.reference }} is logged');
    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByRole('region', { name: 'Preview with sample values' });
    await preview.getByText('Your repair JOB-000123 is logged', { exact: true }).waitFor();
    expect(await preview.locator('iframe').getAttribute('sandbox')).toBe('');
    await page.frameLocator('iframe[title="E-mail preview"]').getByText('Thank you for reporting a problem.', { exact: false }).waitFor();
    await preview.locator('iframe').scrollIntoViewIfNeeded();
    await check(page, 'admin-template-preview');
    await page.getByRole('button', { name: 'Save template' }).click();
    await page.getByText('Saved as version 1.', { exact: false }).waitFor();
    await page.getByRole('region', { name: 'template versions' }).getByRole('cell', { name: 'Version 1', exact: true }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Subject' }).inputValue()).toBe('Your repair {{ job.reference }} is logged');
    const saved = await t.db.selectFrom('message_template_versions').selectAll().where('agency_id', '=', agency.id).execute();
    expect(saved.map((v) => [v.template_key, v.channel, v.version, v.subject])).toEqual([
      ['job.received', 'email', 1, 'Your repair {{ job.reference }} is logged'],
    ]);

    // Back to the built-in text, asked first: a new version.
    await page.getByRole('button', { name: 'Go back to the built-in text' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Use the built-in text' }).click();
    await page.getByText('The built-in text is in use again.').waitFor();
    await page.getByRole('region', { name: 'template versions' }).getByRole('cell', { name: 'Version 2', exact: true }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Subject' }).inputValue()).toBe('We received your repair request {{ job.reference }}');
    await check(page, 'admin-template-versions');
    await page.context().close();
  });
});
