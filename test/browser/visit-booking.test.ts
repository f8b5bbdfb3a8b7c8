/**
 * Booking the visit in headless Chromium at phone width, 390 px, and at 1280 px
 * (docs/tenant-reporting.md "Booking the visit"): the tenant gives two windows on the job page,
 * the contractor books a slot inside one, and a tenant without an account picks one of the
 * contractor's free slots on the signed link page. Every page is checked with axe-core (WCAG 2.2 A
 * and AA); with CONSOLE_SCREENSHOTS=1 they are photographed into docs/tenant-reporting/*.png.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUuid } from '../../src/lib/crypto.ts';
import { addDays, londonDate } from '../../src/lib/london-time.ts';
import { signVisitLink, visitLinkKey } from '../../src/modules/jobs/reporting/visit-links.ts';
import { createAgency, createBranch, createUser, type TestApp } from '../helpers/app.ts';
import { BrowserSession, checkAndShoot as checkPage, CHROMIUM, DESKTOP, PHONE, serveConsole } from '../helpers/browser.ts';
import { insertAddress, insertContractor, insertJob, insertTenant } from '../helpers/factories.ts';

const SHOTS = path.resolve(import.meta.dirname, '../../docs/tenant-reporting');

const TITLE = CHROMIUM ? 'visit booking in headless Chromium at 390 px' : 'visit booking (skipped: Debian chromium is not installed)';

describe.skipIf(!CHROMIUM)(TITLE, () => {
  let t: TestApp;
  const session = new BrowserSession();
  let baseUrl: string;
  const users: Record<string, string> = {};
  let jobUuid = '';
  let linkToken = '';
  // Two days ahead (London), so the windows are in the future whatever the hour.
  const day = addDays(londonDate(new Date()), 2);

  /** A phone-sized page of its own (closed with the others after the tests). */
  const context = () => session.page(PHONE);
  const signedIn = (email: string) => session.signedIn(baseUrl, email, PHONE);

  /** axe at 1280 px and at phone width (the page stays at phone width); pictures in docs/tenant-reporting. */
  const checkAndShoot = (page: Page, name: string) => checkPage(page, SHOTS, name, { desktop: DESKTOP, phone: PHONE });

  beforeAll(async () => {
    ({ t, baseUrl } = await serveConsole());
    const now = new Date();
    const agency = await createAgency(t.db, 'Northgate Lettings');
    const branch = await createBranch(t.db, agency.id, 'Leeds');
    const home = await insertAddress(t.db, { agencyId: agency.id, branchId: branch.id, line1: '14 Kirkstall Road', postcode: 'LS3 1HR' }, now);
    const tenant = await insertTenant(t.db, agency.id, [home.id], 'Emily Clarke', now);
    const firm = await insertContractor(t.db, agency.id, 'Aire Heating', now);
    users.tenant = (await createUser(t.db, { role: 'tenant', agencyId: agency.id, tenantId: tenant.id, name: 'Emily Clarke' })).email;
    users.contractor = (await createUser(t.db, { role: 'contractor', agencyId: agency.id, contractorId: firm.id, name: 'Dave Aire' })).email;
    await createUser(t.db, { role: 'admin', agencyId: agency.id, name: 'Alice Admin' });
    const job = await insertJob(t.db, {
      agency_id: agency.id, branch_id: branch.id, address_id: home.id, tenant_id: tenant.id, contractor_id: firm.id, reference: 'JOB-900101',
      title: 'Boiler not firing', status_id: 4, assigned_at: now,
    }, now);
    jobUuid = job.uuid;
    // A lodger without an account, e-mailed a link for another job of the same contractor.
    const flat = await insertAddress(t.db, { agencyId: agency.id, branchId: branch.id, line1: 'Flat 2, 30 Cardigan Road', postcode: 'LS6 1LF' }, now);
    const lodger = await insertTenant(t.db, agency.id, [flat.id], 'Omar Lodger', now);
    const other = await insertJob(t.db, {
      agency_id: agency.id, branch_id: branch.id, address_id: flat.id, tenant_id: lodger.id, contractor_id: firm.id, reference: 'JOB-900102',
      title: 'Radiator cold', status_id: 4, assigned_at: now,
    }, now);
    const link = { uuid: newUuid(), nonce: 'b'.repeat(32), expiresAt: new Date(now.getTime() + 14 * 86_400_000) };
    await t.db.insertInto('visit_links').values({ uuid: link.uuid, agency_id: agency.id, job_id: other.id, tenant_id: lodger.id, nonce: link.nonce, expires_at: link.expiresAt, created_at: now }).execute();
    const lodgerUuid = (await t.db.selectFrom('tenants').select('uuid').where('id', '=', lodger.id).executeTakeFirstOrThrow()).uuid;
    linkToken = signVisitLink(await visitLinkKey(t.db, now), { nonce: link.nonce, linkUuid: link.uuid, jobUuid: other.uuid, tenantUuid: lodgerUuid, expiresAt: link.expiresAt });
    await session.launch();
  });

  afterAll(() => session.close(t));

  it('the tenant gives two windows on the job page', async () => {
    const page = await signedIn(users.tenant!);
    await page.goto(`${baseUrl}/jobs/${jobUuid}`);
    await page.getByRole('heading', { name: 'Visit', exact: true }).waitFor();
    await page.getByText('No windows given yet.').waitFor();
    const first = page.getByRole('group', { name: 'Window 1' });
    await first.getByLabel('Day').fill(day);
    await first.getByLabel('From').fill('08:00');
    await first.getByLabel('To').fill('12:00');
    await page.getByRole('button', { name: 'Add a window' }).click();
    const second = page.getByRole('group', { name: 'Window 2' });
    await second.getByLabel('Day').fill(addDays(day, 1));
    await second.getByLabel('From').fill('13:00');
    await second.getByLabel('To').fill('17:00');
    await checkAndShoot(page, 'visit-windows');
    await page.getByRole('button', { name: 'Save my windows' }).click();
    await page.getByText('Your windows are saved. The contractor will book a slot inside one.').waitFor();
    const rows = await t.db.selectFrom('job_visit_windows').select(['starts_at', 'ends_at', 'given_by']).orderBy('starts_at').execute();
    expect(rows).toHaveLength(2);
    expect(rows[0]!.given_by).toBe('tenant');
  });

  it('the contractor books a slot inside a window', async () => {
    const page = await signedIn(users.contractor!);
    await page.goto(`${baseUrl}/jobs/${jobUuid}`);
    await page.getByRole('heading', { name: 'Book a slot inside a window' }).waitFor();
    await page.getByRole('radio').nth(1).check();
    await page.getByLabel('Arrive from').fill('14:00');
    await page.getByLabel('Until').fill('16:00');
    await checkAndShoot(page, 'visit-contractor');
    await page.getByRole('button', { name: 'Book this slot' }).click();
    await page.getByText('The visit is booked. The tenant has been told.').waitFor();
    await page.getByText(/Booked: .*14:00-16:00/).waitFor();
    const visit = await t.db.selectFrom('job_visits').select(['state', 'booked_by']).executeTakeFirstOrThrow();
    expect(visit).toEqual({ state: 'booked', booked_by: 'contractor' });
    expect((await t.db.selectFrom('jobs').select('status_id').where('uuid', '=', jobUuid).executeTakeFirstOrThrow()).status_id).toBe(5);
  });

  it('a tenant without an account picks a free slot by the signed link, once', async () => {
    const page = await context();
    await page.goto(`${baseUrl}/visit?token=${linkToken}`);
    await page.getByRole('heading', { name: 'Book your visit' }).waitFor();
    await page.getByText('Radiator cold').waitFor();
    const slots = page.getByRole('group', { name: /free slots/ });
    await slots.getByRole('radio').first().check();
    await checkAndShoot(page, 'visit-link');
    // Meanwhile the contractor books the first free slot for another job: the pick is refused
    // beside the button, and the slots still free are offered.
    const first = (await (await page.request.get(`${baseUrl}/api/visits/link/${linkToken}`)).json()).data.plan.free_slots[0];
    const other = await t.db.selectFrom('jobs').select(['id', 'agency_id', 'branch_id', 'contractor_id']).where('reference', '=', 'JOB-900101').executeTakeFirstOrThrow();
    const rival = await insertJob(t.db, { agency_id: other.agency_id, branch_id: other.branch_id, contractor_id: other.contractor_id, reference: 'JOB-900103', title: 'Tap drips', status_id: 5, assigned_at: new Date() }, new Date());
    await t.db.insertInto('job_visits').values({
      uuid: newUuid(), agency_id: other.agency_id, job_id: rival.id, contractor_id: other.contractor_id!, starts_at: new Date(first.starts_at), ends_at: new Date(first.ends_at),
      booked_by: 'contractor', state: 'booked', missed_by: null, missed_note: null, missed_at: null, reminder_sent_at: null, created_at: new Date(), updated_at: new Date(),
    }).execute();
    await page.getByRole('button', { name: 'Book this slot' }).click();
    const refusal = page.locator('form', { has: page.getByRole('button', { name: 'Book this slot' }) }).getByRole('alert');
    await refusal.getByText(`The contractor is no longer free ${first.label}: pick another slot`).waitFor();
    await slots.getByRole('radio', { name: first.label }).waitFor({ state: 'detached' });
    await slots.getByRole('radio').first().check();
    await page.getByRole('button', { name: 'Book this slot' }).click();
    await page.getByText('Your visit is booked', { exact: true }).waitFor();
    expect(await t.db.selectFrom('job_visits').select('booked_by').where('booked_by', '=', 'tenant').execute()).toHaveLength(1);
    await page.reload();
    await page.getByText('This visit link has been used: your answer is with the contractor').waitFor();
  });
});
