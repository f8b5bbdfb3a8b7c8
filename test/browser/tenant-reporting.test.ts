/**
 * Tenant self-service in headless Chromium at phone width, 390 px (docs/tenant-reporting.md): the
 * tenant's guided report (self-help advice that settles it, the gas emergency shown at once, a
 * job with the photos asked for), the admin's flow editor with its live preview, the survey page
 * of a signed link (no account) and a contractor's scorecard. Every page is checked with axe-core
 * (WCAG 2.2 A and AA); with CONSOLE_SCREENSHOTS=1 they are photographed into
 * docs/tenant-reporting/*.png.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUuid } from '../../src/lib/crypto.ts';
import { signSurvey, surveyKey } from '../../src/modules/jobs/reporting/survey-links.ts';
import { createAgency, createBranch, createUser, type TestApp } from '../helpers/app.ts';
import { BrowserSession, checkAndShoot as checkPage, CHROMIUM, PHONE, serveConsole } from '../helpers/browser.ts';
import { insertAddress, insertContractor, insertJob, insertTenant } from '../helpers/factories.ts';

const SHOTS = path.resolve(import.meta.dirname, '../../docs/tenant-reporting');

const TITLE = CHROMIUM ? 'tenant self-service in headless Chromium at 390 px' : 'tenant self-service (skipped: Debian chromium is not installed)';

describe.skipIf(!CHROMIUM)(TITLE, () => {
  let t: TestApp;
  const session = new BrowserSession();
  let baseUrl: string;
  const users: Record<string, string> = {};
  let contractorUuid = '';
  let surveyToken = '';

  /** A phone-sized page of its own (closed with the others after the tests). */
  const context = () => session.page(PHONE);
  const signedIn = (email: string) => session.signedIn(baseUrl, email, PHONE);

  /** axe at phone width; pictures in docs/tenant-reporting. */
  const checkAndShoot = (page: Page, name: string) => checkPage(page, SHOTS, name);

  beforeAll(async () => {
    ({ t, baseUrl } = await serveConsole());
    const now = new Date();
    const agency = await createAgency(t.db, 'Northgate Lettings');
    const branch = await createBranch(t.db, agency.id, 'Leeds');
    const home = await insertAddress(t.db, { agencyId: agency.id, branchId: branch.id, line1: '14 Kirkstall Road', postcode: 'LS3 1HR' }, now);
    const tenant = await insertTenant(t.db, agency.id, [home.id], 'Emily Clarke', now);
    const firm = await insertContractor(t.db, agency.id, 'Aire Heating', now);
    contractorUuid = (await t.db.selectFrom('contractors').select('uuid').where('id', '=', firm.id).executeTakeFirstOrThrow()).uuid;
    users.tenant = (await createUser(t.db, { role: 'tenant', agencyId: agency.id, tenantId: tenant.id, name: 'Emily Clarke' })).email;
    users.admin = (await createUser(t.db, { role: 'admin', agencyId: agency.id, name: 'Alice Admin' })).email;
    // A completed boiler repair with its survey waiting, and the link the tenant was e-mailed.
    const done = await insertJob(t.db, {
      agency_id: agency.id, branch_id: branch.id, address_id: home.id, tenant_id: tenant.id, contractor_id: firm.id, reference: 'JOB-900001',
      title: 'Boiler losing pressure', status_id: 7, completed_at: now, agreed_cost_pence: 14_500,
    }, now);
    const survey = { uuid: newUuid(), nonce: 'a'.repeat(32), expiresAt: new Date(now.getTime() + 14 * 86_400_000) };
    await t.db.insertInto('job_surveys').values({
      uuid: survey.uuid, agency_id: agency.id, job_id: done.id, tenant_id: tenant.id, contractor_id: firm.id, nonce: survey.nonce, expires_at: survey.expiresAt, created_at: now,
    }).execute();
    surveyToken = signSurvey(await surveyKey(t.db, now), { nonce: survey.nonce, surveyUuid: survey.uuid, tenantUuid: tenant.uuid, expiresAt: survey.expiresAt });
    await session.launch();
  });

  afterAll(() => session.close(t));

  it('the tenant tops up the boiler pressure with the self-help, and no job is raised', async () => {
    const page = await signedIn(users.tenant!);
    await page.locator('#main').getByRole('link', { name: 'Report a repair' }).click();
    await page.getByRole('heading', { name: 'Report a repair' }).waitFor();
    await checkAndShoot(page, 'flows-phone');
    await page.getByRole('button', { name: 'Heating and hot water' }).click();
    await page.getByRole('button', { name: 'No heating and no hot water' }).click();
    await page.getByRole('button', { name: 'Yes, below 1 bar' }).click();
    await page.getByText('find the filling loop under the boiler').waitFor();
    await checkAndShoot(page, 'question-phone');
    await page.getByRole('button', { name: 'Yes, it is working now' }).click();
    await page.getByText('No repair needed: we have noted it.').waitFor();
    await checkAndShoot(page, 'advice-phone');
    const reports = await t.db.selectFrom('tenant_reports').select(['outcome', 'job_id']).execute();
    expect(reports).toEqual([{ outcome: 'advice', job_id: null }]);
  });

  it('a smell of gas shows the instruction at once and raises the emergency job', async () => {
    const page = await signedIn(users.tenant!);
    await page.goto(`${baseUrl}/report`);
    await page.getByRole('button', { name: 'Smell of gas' }).click();
    await page.getByRole('alert').getByText('0800 111 999', { exact: false }).first().waitFor();
    await page.getByText(/Emergency job JOB-\d+ raised/).waitFor();
    expect(await page.getByRole('link', { name: 'Call 0800 111 999' }).getAttribute('href')).toBe('tel:0800111999');
    await checkAndShoot(page, 'emergency-phone');
  });

  it('a leak becomes a job with the photos asked for', async () => {
    const page = await signedIn(users.tenant!);
    await page.goto(`${baseUrl}/report`);
    await page.getByRole('button', { name: 'Leaks, floods and blockages' }).click();
    await page.getByRole('button', { name: /A drip or small leak/ }).click();
    await page.getByRole('button', { name: 'Yes, it is contained' }).click();
    await page.getByLabel('Photo of the leak').waitFor();
    await page.getByLabel('Anything else we should know? (optional)').fill('Under the kitchen sink, since Monday');
    await checkAndShoot(page, 'job-phone');
    await page.getByRole('button', { name: 'Report repair' }).click();
    await page.getByText('Thank you: your repair has been reported.').waitFor();
    await page.getByRole('heading', { name: /Dripping tap or small leak/ }).waitFor();
  });

  it('the admin edits a flow with its live preview and saves a new version', async () => {
    const page = await signedIn(users.admin!);
    await page.goto(`${baseUrl}/flows`);
    await page.getByRole('link', { name: 'Damp and mould' }).click();
    await page.getByRole('heading', { name: 'Edit: Damp and mould' }).waitFor();
    const preview = page.getByRole('region', { name: 'Preview (as a tenant sees it)' });
    await preview.getByRole('button', { name: 'No, it is condensation or mould' }).click();
    await preview.getByText('Is the mould larger than about a square metre').waitFor();
    await checkAndShoot(page, 'flow-editor-phone');
    await page.getByLabel('Name shown to tenants').fill('Damp, mould and condensation');
    await page.getByRole('button', { name: 'Save as a new version' }).click();
    await page.getByText('Saved as version 2.').waitFor();
  });

  it('the survey link opens without an account and answers once', async () => {
    const page = await context();
    await page.goto(`${baseUrl}/survey?token=${surveyToken}`);
    await page.getByRole('heading', { name: 'How did we do?' }).waitFor().catch(async (e: unknown) => {
      process.stdout.write(`survey page at ${page.url()}: ${(await page.locator('body').innerText()).slice(0, 500)}\n`);
      throw e;
    });
    await page.getByText('Boiler losing pressure').waitFor();
    await page.getByLabel('4').check();
    await page.getByLabel('Comment (optional)').fill('Quick and tidy, thank you');
    await checkAndShoot(page, 'survey-phone');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Thank you: your answer has been recorded.').waitFor();
    await page.reload();
    await page.getByText('This survey has already been answered: thank you').waitFor();
  });

  it("the contractor's page shows its scorecard", async () => {
    const page = await signedIn(users.admin!);
    await page.goto(`${baseUrl}/contractors/${contractorUuid}`);
    await page.getByRole('heading', { name: 'Aire Heating: scorecard' }).waitFor();
    await page.getByText('4 / 5 (1 surveys)').waitFor();
    await checkAndShoot(page, 'scorecard-phone');
  });
});
