/**
 * Onboarding in the console from an empty install (docs/onboarding.md), in headless Chromium:
 * SysOps create an agency; its administrator accepts the invitation, adds a branch and imports the
 * sample files of test/fixtures/imports (properties, tenants, contractors, landlords; bad rows
 * shown by the dry run and skipped) and invites an agent, who accepts by the e-mailed link and logs
 * a job against an imported property, picked by postcode, with its tenant (filled in from the
 * property) and trade, and assigns the best-matched contractor. Every page is checked with axe-core; with CONSOLE_SCREENSHOTS=1 the steps are
 * photographed into docs/onboarding/*.png.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodemailerMailer } from '../../src/modules/messaging/mail/mailer.ts';
import { createUser, type TestApp } from '../helpers/app.ts';
import { BrowserSession, checkAndShoot as checkPage, CHROMIUM, DESKTOP, serveConsole } from '../helpers/browser.ts';
import { decodeQuotedPrintable, mailTo, readEmlFiles, waitFor } from '../people/users/mail-helpers.ts';

const SHOTS = path.resolve(import.meta.dirname, '../../docs/onboarding');
const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/imports');

const TITLE = CHROMIUM ? 'onboarding in the console from an empty install' : 'onboarding in the console (skipped: Debian chromium is not installed)';

describe.skipIf(!CHROMIUM)(TITLE, () => {
  let t: TestApp;
  const session = new BrowserSession();
  let baseUrl: string;

  /** A laptop-sized page of its own (its context closed after the tests); slower steps get 20 s. */
  const newPage = () => session.page(DESKTOP, { timeoutMs: 20_000 });
  const signIn = (email: string, password?: string) => session.signedIn(baseUrl, email, DESKTOP, { timeoutMs: 20_000, password });

  /** axe at the page's width; pictures in docs/onboarding. */
  const checkAndShoot = (page: Page, name: string) => checkPage(page, SHOTS, name);

  /**
   * Uploads a fixture on the import page, checks the dry run's summary and the optional columns
   * it names as kept (`kept`: the list as shown; '' for none), and imports it.
   */
  async function importFile(page: Page, entity: string, file: string, summary: RegExp, kept: string, shot?: string): Promise<void> {
    await page.getByLabel('What the file holds').selectOption(entity);
    await page.getByLabel('CSV or XLSX file').setInputFiles(path.join(FIXTURES, file));
    await page.getByLabel('Skip bad rows (import the good ones)').check();
    await page.getByRole('button', { name: 'Check file' }).click();
    await page.locator('.import-counts', { hasText: summary }).waitFor();
    if (kept) await page.locator('.import-kept', { hasText: `Columns not in the file, kept as stored: ${kept}.` }).waitFor();
    else expect(await page.locator('.import-kept').count()).toBe(0);
    if (shot) await checkAndShoot(page, shot);
    await page.getByRole('button', { name: /^Import \d+ rows$/ }).click();
    await page.getByText(/^Imported: /).waitFor();
  }

  beforeAll(async () => {
    ({ t, baseUrl } = await serveConsole());
    await session.launch();
  });
  afterAll(() => session.close(t));

  it('walks a new agency from nothing to its first assigned job', async () => {
    // An empty install: no agency; the first start's SysOps account.
    expect(await t.db.selectFrom('agencies').select('id').execute()).toEqual([]);
    const sysops = (await createUser(t.db, { role: 'sysops', name: 'Sam SysOps' })).email;

    const ops = await signIn(sysops);
    await ops.goto(`${baseUrl}/agencies`);
    await ops.getByText('No agencies yet.', { exact: false }).waitFor();
    await ops.getByRole('link', { name: 'New agency' }).click();
    await ops.getByLabel('Trading name').fill('Headingley Homes');
    await ops.getByLabel("Administrator's name").fill('Ada Admin');
    await ops.getByLabel("Administrator's e-mail").fill('ada@headingley.example');
    await ops.getByRole('button', { name: 'Create agency' }).click();
    await ops.getByText('Headingley Homes created; an invitation was e-mailed to ada@headingley.example.').waitFor();
    await checkAndShoot(ops, '1-sysops-agency');

    const dir = (t.deps.mailer as NodemailerMailer).dir;
    const mail = await waitFor(async () => mailTo(await readEmlFiles(dir), 'ada@headingley.example'));
    const link = /https?:\/\/\S+?(\/accept-invitation\?token=[0-9a-f]{64})/.exec(decodeQuotedPrintable(mail.raw))?.[1];
    expect(link).toBeDefined();
    const invite = await newPage();
    await invite.goto(`${baseUrl}${link}`);
    await invite.getByLabel('Choose a password').fill('ada chose this password');
    await invite.getByRole('button', { name: 'Accept invitation' }).click();
    await invite.getByText('Invitation accepted.').waitFor();

    const admin = await signIn('ada@headingley.example', 'ada chose this password');
    await admin.goto(`${baseUrl}/dashboard`);
    await admin.getByRole('heading', { name: 'Set up your agency' }).waitFor();
    await checkAndShoot(admin, '2-admin-setup-checklist');
    // The list's first read is answered by the server at once but reaches the page only after the
    // new branch's POST has been answered: a read on its way when a write lands (as on a loaded
    // machine) must not be the list's last word.
    const branchesList = (url: URL) => url.pathname === '/api/admin/branches';
    let branchAdded!: () => void;
    const added = new Promise<void>((resolve) => (branchAdded = resolve));
    let held = false;
    admin.on('response', (r) => {
      if (r.request().method() === 'POST' && branchesList(new URL(r.url()))) branchAdded();
    });
    await admin.route(branchesList, async (route) => {
      if (held || route.request().method() !== 'GET') return route.continue();
      held = true;
      const response = await route.fetch();
      await added;
      await route.fulfill({ response });
    });
    await admin.goto(`${baseUrl}/branches`);
    await admin.getByLabel('Branch name').fill('Leeds');
    await admin.getByRole('button', { name: 'Add branch' }).click();
    await admin.getByRole('cell', { name: 'Leeds', exact: true }).waitFor();
    await admin.unroute(branchesList);

    await admin.goto(`${baseUrl}/imports`);
    await importFile(admin, 'addresses', 'properties.csv', /3 to create, 0 to update, 0 unchanged, 3 with errors/, 'line3, is_communal', '3-import-dry-run');
    await importFile(admin, 'tenants', 'tenants-windows-1252.csv', /2 to create, .* 1 with errors/, 'mobile, preferred_contact');
    await importFile(admin, 'contractors', 'contractors.csv', /2 to create, .* 2 with errors/, '');
    await importFile(admin, 'landlords', 'landlords.csv', /2 to create, .* 5 with errors/, '');
    expect(await t.db.selectFrom('addresses').select('id').execute()).toHaveLength(3);
    expect(await t.db.selectFrom('landlords').select('id').execute()).toHaveLength(2);

    // The administrator invites an agent of the Leeds branch from the users page; the agent accepts
    // by the e-mailed link and chooses a password, as the administrator did.
    await admin.goto(`${baseUrl}/users`);
    await admin.getByRole('heading', { name: 'Invite someone' }).waitFor();
    await admin.getByRole('textbox', { name: 'Name', exact: true }).fill('Alex Agent');
    await admin.getByRole('textbox', { name: 'E-mail address', exact: true }).fill('alex@headingley.example');
    await admin.getByLabel('Role', { exact: true }).selectOption('agent');
    await admin.getByLabel('Branch', { exact: true }).selectOption({ label: 'Leeds' });
    await admin.getByRole('button', { name: 'Send invitation' }).click();
    await admin.getByText('Invitation sent to alex@headingley.example.').waitFor();
    const agentMail = await waitFor(async () => mailTo(await readEmlFiles(dir), 'alex@headingley.example'));
    const agentLink = /https?:\/\/\S+?(\/accept-invitation\?token=[0-9a-f]{64})/.exec(decodeQuotedPrintable(agentMail.raw))?.[1];
    expect(agentLink).toBeDefined();
    const agentInvite = await newPage();
    await agentInvite.goto(`${baseUrl}${agentLink}`);
    await agentInvite.getByLabel('Choose a password').fill('alex chose this password');
    await agentInvite.getByRole('button', { name: 'Accept invitation' }).click();
    await agentInvite.getByText('Invitation accepted.').waitFor();

    const agent = await signIn('alex@headingley.example', 'alex chose this password');
    await agent.goto(`${baseUrl}/jobs/new`);
    await agent.getByRole('heading', { name: 'New job' }).waitFor();
    await agent.getByRole('combobox', { name: /Property/ }).fill('ls61ab');
    await agent.getByRole('option', { name: /Flat 1, 12 Hyde Park Road/ }).click();
    await expect.poll(() => agent.getByLabel('Tenant').locator('option:checked').textContent()).toContain('Zoë Brontë');
    await agent.getByLabel('Trade').selectOption({ label: 'Plumbing' });
    await agent.getByLabel('What needs repairing?').fill('Dripping bathroom tap');
    await agent.getByLabel('Details').fill('Phoned in by the tenant: the hot tap drips all night.');
    await checkAndShoot(agent, '4-agent-new-job');
    await agent.getByRole('button', { name: 'Create job' }).click();
    await agent.getByText('Job created.').waitFor();
    const job = await t.db.selectFrom('jobs as j').innerJoin('addresses as a', 'a.id', 'j.address_id').innerJoin('tenants as te', 'te.id', 'j.tenant_id').innerJoin('trades as tr', 'tr.id', 'j.trade_id').innerJoin('branches as b', 'b.id', 'j.branch_id')
      .select(['a.line2', 'te.name as tenant', 'tr.code as trade', 'b.name as branch']).executeTakeFirstOrThrow();
    expect(job).toEqual({ line2: 'Flat 1', tenant: 'Zoë Brontë', trade: 'plumbing', branch: 'Leeds' });

    await agent.getByRole('button', { name: 'Approve' }).click();
    await agent.locator('.details .badge', { hasText: 'Approved' }).waitFor();
    const best = agent.locator('.match-list > li').first();
    await best.getByText('Aire Valley Plumbing Ltd').waitFor();
    await best.getByText('score 100/100').waitFor();
    await best.getByText('Covers LS6').waitFor();
    await checkAndShoot(agent, '5-agent-assign');
    await agent.getByRole('radio', { name: /Aire Valley Plumbing Ltd/ }).check();
    await agent.getByRole('button', { name: 'Assign', exact: true }).click();
    await agent.locator('.details .badge', { hasText: 'Assigned' }).waitFor();
    await agent.getByText('Aire Valley Plumbing Ltd (not accepted yet)').waitFor();
    expect(await agent.getByRole('alertdialog').count()).toBe(0);
  }, 300_000);
});
