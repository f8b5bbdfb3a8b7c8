/**
 * The job page's staff operations in the console (docs/console.md "The job page: managing a
 * job"), in headless Chromium on PGlite at 1280 px with axe at 390 px and 1280 px: an
 * administrator reads a job's SLA clock in words and its weather's empty state, edits the job,
 * reads the estimate from the price list and a quote's lines, asks the landlord to approve a cost
 * above their limit, merges a duplicate into the job, deletes the duplicate (backing out once) and
 * lands on the board with a message, raises a recall of a completed repair and reads the linked
 * jobs, and downloads the evidence pack. Each change is checked in the database; the job page
 * survives a reload.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createAgency, createBranch, createUser, login, type TestApp } from '../helpers/app.ts';
import { BrowserSession, checkAtBothWidths, CHROMIUM, DESKTOP, reloadLands, serveConsole } from '../helpers/browser.ts';
import { insertAddress, insertContractor, insertJob, insertTenant } from '../helpers/factories.ts';

const check = checkAtBothWidths;

const TITLE = CHROMIUM ? "The job page's staff operations in the console" : "The job page's staff operations in the console (skipped: Debian chromium is not installed)";

describe.skipIf(!CHROMIUM)(TITLE, () => {
  let t: TestApp;
  const session = new BrowserSession();
  let baseUrl: string;

  beforeAll(async () => {
    ({ t, baseUrl } = await serveConsole());
    await session.launch();
  });
  afterAll(() => session.close(t));

  it('an administrator edits, estimates, asks the landlord, merges, deletes, recalls and downloads the evidence pack', async () => {
    const agency = await createAgency(t.db, 'Kirkstall Lettings');
    const branch = await createBranch(t.db, agency.id, 'Kirkstall');
    const flat = await insertAddress(t.db, { agencyId: agency.id, branchId: branch.id, line1: '4 Abbey Road', postcode: 'LS5 3HS' });
    const tenant = await insertTenant(t.db, agency.id, [flat.id], 'Priya Shah');
    const firm = await insertContractor(t.db, agency.id, 'Aire Valley Plumbing');
    const admin = await createUser(t.db, { role: 'admin', agencyId: agency.id, branchId: branch.id, name: 'Mina Admin' });
    const api = new Client(t.app, await login(t.app, admin.email));
    const ok = async (res: Promise<{ statusCode: number; body: string; json: () => any }>) => {
      const r = await res;
      expect(r.statusCode, r.body).toBeLessThan(300);
      return r.json().data;
    };
    // An SLA rule for urgent repairs, the landlord with a £100 limit, a price and two reports of the same tap.
    await ok(
      api.post('/api/agents/branch-sla-response-times', {
        branch_uuid: branch.uuid, job_type_id: 1, job_priority: 2, job_status_from_id: 1, job_status_to_id: 6,
        date_field_to_compare: 'created_at', date_field_to_track: 'attended_at', minimum_response_days: 1,
        description: 'Urgent repairs attended within 1 day',
      }),
    );
    const landlord = await ok(api.post('/api/landlords', { name: 'Margaret Oyelaran', email: 'margaret@example.test', approval_limit_pence: 10_000 }));
    await ok(api.post(`/api/landlords/${landlord.uuid}/properties`, { address_uuid: flat.uuid, share_bp: 10_000 }));
    await ok(api.post('/api/pricing/items', { code: 'TAP-CART', name: 'Replace a tap cartridge', unit: 'each', unit_price_pence: 4_500, job_type_id: 1, vat_rate: 'standard' }));
    const kept = await ok(
      api.post('/api/jobs/manage', { title: 'Dripping kitchen tap', description: 'The kitchen tap drips all night.', priority: 2, job_type_id: 1, branch_uuid: branch.uuid, address_uuid: flat.uuid }),
    );
    const dup = await ok(api.post('/api/jobs/manage', { title: 'Kitchen tap leaking', priority: 3, job_type_id: 1, branch_uuid: branch.uuid, address_uuid: flat.uuid }));
    await ok(api.post(`/api/jobs/${kept.uuid}/quotes`, { contractor_uuid: firm.uuid, lines: [{ description: 'New mixer tap', quantity: 1, unit_price_pence: 12_000, vat_rate: 'standard' }, { description: 'Labour', quantity: 2, unit_price_pence: 4_000, vat_rate: 'standard' }] }));
    const completedAt = new Date(Date.now() - 2 * 86_400_000);
    const done = await insertJob(t.db, {
      agency_id: agency.id, branch_id: branch.id, address_id: flat.id, tenant_id: tenant.id, contractor_id: firm.id,
      title: 'Blocked bathroom sink', status_id: 7, completed_at: completedAt, reference: 'JOB-000777',
    });
    const jobId = async (uuid: string) => (await t.db.selectFrom('jobs').select('id').where('uuid', '=', uuid).executeTakeFirstOrThrow()).id;

    const page = await session.signedIn(baseUrl, admin.email, DESKTOP, { timeoutMs: 20_000 });

    // The job kept: its SLA clock in words, the weather's empty state, then the edit form.
    await page.goto(`${baseUrl}/jobs/${kept.uuid}`);
    await page.getByRole('heading', { name: `${kept.reference}: Dripping kitchen tap`, level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Manage this job' }).waitFor();
    await page.getByText('Urgent repairs attended within 1 day (1 day, calendar days), due by', { exact: false }).waitFor();
    await page.getByText('No visit day is booked yet', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Edit job' }).click();
    await page.getByLabel('Title').fill('Dripping kitchen mixer tap');
    await page.getByLabel('Description').fill('The mixer tap drips all night; the tenant has put a bowl under it.');
    await page.getByLabel('Trade').selectOption({ label: 'Plumbing' });
    await check(page, 'job-manage-edit');
    await page.getByRole('button', { name: 'Save job' }).click();
    await page.getByText('Job saved.').waitFor();
    await page.getByRole('heading', { name: `${kept.reference}: Dripping kitchen mixer tap`, level: 1 }).waitFor();
    const edited = await t.db.selectFrom('jobs as j').innerJoin('trades as tr', 'tr.id', 'j.trade_id').select(['j.title', 'j.description', 'tr.name']).where('j.uuid', '=', kept.uuid).executeTakeFirstOrThrow();
    expect(edited).toEqual({ title: 'Dripping kitchen mixer tap', description: 'The mixer tap drips all night; the tenant has put a bowl under it.', name: 'Plumbing' });

    // Money: the estimate from the price list and the lines of the quote.
    await page.getByRole('tab', { name: 'Quotes and invoices' }).click();
    await page.getByRole('heading', { name: 'Estimate from the price list' }).waitFor();
    await page.getByRole('cell', { name: 'Replace a tap cartridge', exact: true }).waitFor();
    await page.getByText('Estimate: £45.00 before VAT, £54.00 including VAT', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Lines of the quote of Aire Valley Plumbing' }).click();
    await page.getByRole('cell', { name: 'Labour', exact: true }).waitFor();
    // The firm is not VAT-registered: no VAT on its quote.
    await page.getByText('Total £200.00 before VAT, £200.00, no VAT (not VAT-registered).', { exact: false }).waitFor();
    await check(page, 'job-manage-money');
    await reloadLands(page, `${kept.reference}: Dripping kitchen mixer tap`);
    await page.getByRole('heading', { name: 'Estimate from the price list' }).waitFor();

    // Ask the landlord: £250 is above their £100 limit, so the job waits for their answer.
    await page.getByRole('button', { name: 'Ask the landlord' }).click();
    const ask = page.getByRole('alertdialog');
    await ask.getByLabel('Cost in pounds, including VAT').fill('250');
    await ask.getByLabel('What the money is for (the landlord reads this)').fill('New kitchen mixer tap and fitting');
    await ask.getByRole('button', { name: 'Ask the landlord' }).click();
    await page.getByText('Asked Margaret Oyelaran to approve £250.00; the job waits for their answer.').waitFor();
    const approval = await t.db.selectFrom('approval_requests').select(['amount_pence', 'description', 'status']).where('job_id', '=', await jobId(kept.uuid)).executeTakeFirstOrThrow();
    expect(approval).toEqual({ amount_pence: 25_000, description: 'New kitchen mixer tap and fitting', status: 'pending' });
    expect((await t.db.selectFrom('jobs').select('status_id').where('uuid', '=', kept.uuid).executeTakeFirstOrThrow()).status_id).toBe(2);

    // The duplicate: merged into the job kept after a confirmation, then its links name it.
    await page.goto(`${baseUrl}/jobs/${dup.uuid}`);
    await page.getByRole('heading', { name: `${dup.reference}: Kitchen tap leaking`, level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Merge into another job' }).click();
    // The open jobs at the same property (the completed repair is one): the kept job is chosen.
    await expect.poll(() => page.getByLabel('The job to keep').locator('option').allTextContents()).toContain(`${kept.reference}: Dripping kitchen mixer tap (Awaiting approval)`);
    await page.getByLabel('The job to keep').selectOption({ label: `${kept.reference}: Dripping kitchen mixer tap (Awaiting approval)` });
    await page.getByLabel('Note (optional)').fill('Same tap, reported twice');
    await page.getByRole('button', { name: 'Merge into the job kept' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Merge jobs' }).click();
    await page.getByText(`${dup.reference} was merged into ${kept.reference} and cancelled as a duplicate.`).waitFor();
    const merge = await t.db.selectFrom('job_merges').select(['kept_job_id', 'note']).where('merged_job_id', '=', await jobId(dup.uuid)).executeTakeFirstOrThrow();
    expect(merge).toEqual({ kept_job_id: await jobId(kept.uuid), note: 'Same tap, reported twice' });
    expect((await t.db.selectFrom('jobs').select('status_id').where('uuid', '=', dup.uuid).executeTakeFirstOrThrow()).status_id).toBe(10);
    await page.getByRole('tab', { name: 'Links' }).click();
    await page.getByRole('heading', { name: 'Linked jobs' }).waitFor();
    await page.locator('li', { hasText: 'Merged as a duplicate into' }).getByRole('link', { name: kept.reference }).waitFor();
    await check(page, 'job-manage-links');

    // Deleting the cancelled duplicate: backed out of once, then done; the board says so.
    await page.getByRole('button', { name: 'Delete job' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Keep the job' }).click();
    expect((await t.db.selectFrom('jobs').select('deleted_at').where('uuid', '=', dup.uuid).executeTakeFirstOrThrow()).deleted_at).toBeNull();
    await page.getByRole('button', { name: 'Delete job' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete job' }).click();
    await page.getByText(`${dup.reference} (Kitchen tap leaking) was deleted.`).waitFor();
    expect(new URL(page.url()).pathname).toBe('/jobs');
    expect((await t.db.selectFrom('jobs').select('deleted_at').where('uuid', '=', dup.uuid).executeTakeFirstOrThrow()).deleted_at).not.toBeNull();

    // The completed repair: a recall raised (its reason required), linked both ways.
    await page.goto(`${baseUrl}/jobs/${done.uuid}`);
    await page.getByRole('heading', { name: 'JOB-000777: Blocked bathroom sink', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Raise a recall' }).click();
    await page.getByRole('alertdialog').getByLabel('What is wrong again?').fill('The sink is blocked again two days later.');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Raise recall' }).click();
    await page.getByText(/^Recall .+ raised: the contractor comes back\./).waitFor();
    const recall = await t.db
      .selectFrom('job_recalls as r')
      .innerJoin('jobs as j', 'j.id', 'r.job_id')
      .select(['j.uuid', 'j.reference', 'j.title', 'r.reason'])
      .where('r.original_job_id', '=', done.id)
      .executeTakeFirstOrThrow();
    expect(recall.reason).toBe('The sink is blocked again two days later.');
    expect(recall.title).toContain('Blocked bathroom sink');
    await page.getByRole('tab', { name: 'Links' }).click();
    await page.locator('li', { hasText: 'Recalled as' }).getByRole('link', { name: recall.reference }).waitFor();

    // The evidence pack is a file: a plain link the browser downloads.
    const pdf = page.getByRole('link', { name: 'Download the evidence pack (PDF)' });
    expect(await pdf.getAttribute('href')).toBe(`/api/jobs/${done.uuid}/evidence-pack?format=pdf`);
    const res = await page.request.get(`${baseUrl}/api/jobs/${done.uuid}/evidence-pack?format=pdf`);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toContain('application/pdf');
    await reloadLands(page, 'JOB-000777: Blocked bathroom sink');
    await page.getByRole('heading', { name: 'Linked jobs' }).waitFor();

    // The recall's own page names the repair it recalls.
    await page.locator('li', { hasText: 'Recalled as' }).getByRole('link', { name: recall.reference }).click();
    await page.getByRole('tab', { name: 'Links' }).click();
    await page.locator('li', { hasText: 'A recall of' }).getByRole('link', { name: 'JOB-000777' }).waitFor();
  });
});
