/**
 * The office's records in the console (docs/console.md "The agency's office"), in headless
 * Chromium on PGlite at 1280 px with axe on each state: an administrator withholds a note from a
 * tenant's subject-access report under a ground of the Data Protection Act 2018 (an empty reason
 * told first), sees it listed as withheld, backs out of putting it back once and then puts it back
 * (docs/gdpr.md "Exemptions"); on the job page uploads a photo and a document and deletes each after
 * its confirmation (backing out once), the empty states saying what to do; gives the job an owning
 * agent; on Agents lists the agents by branch; on Branches makes a branch share its jobs after a
 * confirmation; edits their own note; sets landlords' approval reminder and expiry on Agency settings
 * (a reminder after the expiry told first); states a property's Awaab's Law tenure; renames a custom
 * compliance type; adds a building (a missing postcode told first), renames it and records its
 * lift. Every change is read back from the database or the API.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createAgency, createBranch, createUser, login, type TestApp } from '../helpers/app.ts';
import { axeViolations, BrowserSession, CHROMIUM, DESKTOP, gradientPng, serveConsole } from '../helpers/browser.ts';
import { insertAddress, insertJob, insertTenant } from '../helpers/factories.ts';

/** No axe violations (WCAG 2.2 A/AA) on the page as it is. */
async function axe(page: Page, name: string): Promise<void> {
  expect(await axeViolations(page), name).toEqual([]);
}

const TITLE = CHROMIUM ? 'subject-access exemptions, job files and agents in the console' : 'subject-access exemptions, job files and agents in the console (skipped: Debian chromium is not installed)';

describe.skipIf(!CHROMIUM)(TITLE, () => {
  let t: TestApp;
  const session = new BrowserSession();
  let baseUrl: string;

  beforeAll(async () => {
    ({ t, baseUrl } = await serveConsole());
    await session.launch();
  });
  afterAll(() => session.close(t));

  it('withholds an item of a data report and puts it back; deletes a job photo and document after a confirmation; owning agent; branch sharing; a note edited; approval settings; the tenure of a property; a type renamed; a building', async () => {
    const agency = await createAgency(t.db, 'Headingley Homes');
    const leeds = await createBranch(t.db, agency.id, 'Leeds');
    const york = await createBranch(t.db, agency.id, 'York');
    const flat = await insertAddress(t.db, { agencyId: agency.id, branchId: leeds.id, line1: '12 Hyde Park Road', postcode: 'LS6 1AB' });
    const tenant = await insertTenant(t.db, agency.id, [flat.id], 'Emily Clarke');
    const job = await insertJob(t.db, { agency_id: agency.id, branch_id: leeds.id, address_id: flat.id, tenant_id: tenant.id, title: 'Damp in the bedroom', priority: 3, status_id: 1, reference: 'JOB-000201' });
    const admin = await createUser(t.db, { role: 'admin', agencyId: agency.id, branchId: leeds.id, name: 'Ada Admin' });
    const agent = await createUser(t.db, { role: 'agent', agencyId: agency.id, branchId: leeds.id, name: 'Alex Agent' });
    const api = new Client(t.app, await login(t.app, admin.email));
    const note = await api.post(`/api/jobs/${job.uuid}/notes`, { body: 'Our solicitor advises against admitting liability for the damp', visibility: 'internal' });
    expect(note.statusCode, note.body).toBe(201);

    const page = await session.signedIn(baseUrl, admin.email, DESKTOP, { timeoutMs: 20_000 });

    // 1. The tenant's record: nothing withheld yet, then the note withheld under legal privilege.
    await page.goto(`${baseUrl}/tenants/${tenant.uuid}/edit`);
    await page.getByRole('heading', { name: 'Items withheld from their data', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Review what is withheld', exact: true }).click();
    await page.getByText('Nothing is withheld: their data report holds every item.', { exact: false }).waitFor();
    await axe(page, 'data report, nothing withheld');
    await page.getByLabel('Section', { exact: true }).selectOption('notes');
    const withhold = page.getByRole('button', { name: 'Withhold: Note "Our solicitor advises against admitting liability for the damp" by Ada Admin (job JOB-000201)', exact: true });
    await withhold.click();
    await page.getByLabel('Ground', { exact: false }).selectOption('legal_privilege');
    await page.getByRole('button', { name: 'Withhold item', exact: true }).click();
    await page.getByText('Say why the ground applies to this item', { exact: false }).waitFor();
    expect(await t.db.selectFrom('gdpr_exemptions').select('id').where('tenant_id', '=', tenant.id).execute()).toEqual([]);
    await page.getByLabel('Why it applies', { exact: false }).fill("Summarises our solicitor's advice on the disrepair claim");
    await axe(page, 'withholding a note');
    await page.getByRole('button', { name: 'Withhold item', exact: true }).click();
    await page.getByText('The report shows it as withheld under "Legal professional privilege".', { exact: false }).waitFor();
    await page.getByText('Withheld under Legal professional privilege (DPA 2018 Sch. 2 para. 19)', { exact: true }).waitFor();
    const held = await t.db.selectFrom('gdpr_exemptions').select(['section', 'ground', 'reason']).where('tenant_id', '=', tenant.id).execute();
    expect(held).toEqual([{ section: 'notes', ground: 'legal_privilege', reason: "Summarises our solicitor's advice on the disrepair claim" }]);
    await axe(page, 'a note withheld');

    // Putting it back asks first; backing out keeps it withheld.
    const putBack = page.getByRole('button', { name: /^Put back: Legal professional privilege/ });
    await putBack.click();
    await page.getByRole('alertdialog').getByText('Put this item back in the report?', { exact: true }).waitFor();
    await axe(page, 'put back dialog');
    await page.getByRole('button', { name: 'Keep it withheld', exact: true }).click();
    await page.getByRole('alertdialog').waitFor({ state: 'detached' });
    expect(await t.db.selectFrom('gdpr_exemptions').select('id').where('tenant_id', '=', tenant.id).execute()).toHaveLength(1);
    await putBack.click();
    await page.getByRole('button', { name: 'Put it back', exact: true }).click();
    await page.getByText('The item is in the report again.', { exact: true }).waitFor();
    await page.getByText('Nothing is withheld: their data report holds every item.', { exact: false }).waitFor();
    expect(await t.db.selectFrom('gdpr_exemptions').select('id').where('tenant_id', '=', tenant.id).execute()).toEqual([]);

    // 2. The job page: a photo and a document uploaded, each deleted after its confirmation.
    await page.goto(`${baseUrl}/jobs/${job.uuid}`);
    await page.getByText('No photos yet. Add one below', { exact: false }).waitFor();
    await page.getByText('No documents yet. Add one below', { exact: false }).waitFor();
    await page.getByLabel('Add a photo', { exact: true }).setInputFiles({ name: 'mould.png', mimeType: 'image/png', buffer: gradientPng(32, 24) });
    await page.getByRole('button', { name: 'Upload photo', exact: true }).click();
    await page.getByRole('button', { name: 'Delete photo mould.png', exact: true }).waitFor();
    await page.getByLabel('Add a document', { exact: true }).setInputFiles({ name: 'survey.txt', mimeType: 'text/plain', buffer: Buffer.from('Damp survey: readings above 20 % on the north wall.\n') });
    await page.getByRole('button', { name: 'Upload document', exact: true }).click();
    await page.getByRole('button', { name: 'Delete document survey.txt', exact: true }).waitFor();
    await axe(page, 'job with a photo and a document');

    const live = async () =>
      (await t.db.selectFrom('job_files').select(['original_filename']).where('job_id', '=', job.id).where('deleted_at', 'is', null).orderBy('original_filename').execute()).map((f) => f.original_filename);
    expect(await live()).toEqual(['mould.png', 'survey.txt']);
    await page.getByRole('button', { name: 'Delete photo mould.png', exact: true }).click();
    await page.getByRole('alertdialog').getByText('Delete the photo mould.png?', { exact: true }).waitFor();
    await axe(page, 'delete photo dialog');
    await page.getByRole('button', { name: 'Keep it', exact: true }).click();
    await page.getByRole('alertdialog').waitFor({ state: 'detached' });
    expect(await live()).toEqual(['mould.png', 'survey.txt']);
    await page.getByRole('button', { name: 'Delete photo mould.png', exact: true }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete photo', exact: true }).click();
    await page.getByText('The photo mould.png was deleted.', { exact: true }).waitFor();
    await page.getByText('No photos yet. Add one below', { exact: false }).waitFor();
    expect(await live()).toEqual(['survey.txt']);

    await page.getByRole('button', { name: 'Delete document survey.txt', exact: true }).click();
    await page.getByRole('alertdialog').getByText('Delete the document survey.txt?', { exact: true }).waitFor();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete document', exact: true }).click();
    await page.getByText('survey.txt was deleted.', { exact: true }).waitFor();
    await page.getByText('No documents yet. Add one below', { exact: false }).waitFor();
    expect(await live()).toEqual([]);
    await axe(page, 'job with its files deleted');

    // 3. The job's owning agent.
    await page.getByRole('button', { name: 'Change the owning agent', exact: true }).click();
    await page.getByLabel('Owning agent', { exact: true }).selectOption({ label: 'Alex Agent (Leeds)' });
    await axe(page, 'choosing the owning agent');
    await page.getByRole('button', { name: 'Save owning agent', exact: true }).click();
    // The form closes once the API has answered; then the row reads the agent's name.
    await page.getByRole('form', { name: 'Choose the owning agent', exact: true }).waitFor({ state: 'detached' });
    await page.locator('.details dd', { hasText: 'Alex Agent' }).waitFor();
    expect((await t.db.selectFrom('jobs').select('agent_user_id').where('id', '=', job.id).executeTakeFirstOrThrow()).agent_user_id).toBe(agent.id);

    // 4. Agents by branch, and the admin's own branch sharing its jobs.
    await page.goto(`${baseUrl}/agents`);
    await page.getByRole('heading', { name: 'Agents', exact: true, level: 1 }).waitFor();
    await page.getByText('Alex Agent', { exact: true }).waitFor();
    await page.getByText('Leeds does not share its jobs: only its own agents see them.', { exact: true }).waitFor();
    await axe(page, 'agents page');
    await page.getByLabel('Branch', { exact: true }).selectOption({ label: 'York' });
    await page.getByText('No agents at this branch.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Share jobs with the other branches', exact: true }).click();
    await page.getByRole('alertdialog').getByText("Share the Leeds branch's jobs?", { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Share jobs', exact: true }).click();
    await page.getByText('Leeds shares its jobs with the agency\'s other branches.', { exact: true }).waitFor();
    expect((await t.db.selectFrom('branches').select('sharing_enabled').where('id', '=', leeds.id).executeTakeFirstOrThrow()).sharing_enabled).toBe(true);

    // On Branches, another branch's sharing (administrators).
    await page.goto(`${baseUrl}/branches`);
    await page.getByRole('button', { name: 'Share jobs: York', exact: true }).click();
    await page.getByRole('alertdialog').getByText("Share the York branch's jobs?", { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Share jobs', exact: true }).click();
    await page.getByRole('button', { name: 'Stop sharing: York', exact: true }).waitFor();
    expect((await t.db.selectFrom('branches').select('sharing_enabled').where('id', '=', york.id).executeTakeFirstOrThrow()).sharing_enabled).toBe(true);
    await axe(page, 'branches with sharing');

    // 5. One's own note edited within its 15 minutes, on the job's Notes tab.
    await page.goto(`${baseUrl}/jobs/${job.uuid}?tab=notes`);
    await page.getByRole('button', { name: /^Edit your note of / }).click();
    await page.getByLabel('Your note', { exact: true }).fill('Our solicitor advises: do not admit liability for the damp yet.');
    await axe(page, 'editing a note');
    await page.getByRole('button', { name: 'Save note', exact: true }).click();
    await page.getByText('Our solicitor advises: do not admit liability for the damp yet.', { exact: true }).waitFor();
    expect((await t.db.selectFrom('job_notes').select('body').where('job_id', '=', job.id).executeTakeFirstOrThrow()).body).toBe('Our solicitor advises: do not admit liability for the damp yet.');

    // 6. Landlords' approvals on Agency settings: a reminder after the expiry is told first.
    await page.goto(`${baseUrl}/settings`);
    await page.getByRole('heading', { name: "Landlords' approvals", exact: true }).waitFor();
    await page.getByLabel('Remind the landlord after (hours)', { exact: false }).fill('48');
    await page.getByLabel('The request expires after (hours)', { exact: false }).fill('24');
    await page.getByRole('button', { name: 'Save approval times', exact: true }).click();
    await page.getByText('The reminder must come before the approval expires', { exact: false }).waitFor();
    await page.getByLabel('The request expires after (hours)', { exact: false }).fill('168');
    await page.getByRole('button', { name: 'Save approval times', exact: true }).click();
    await page.getByText('Saved: landlords are reminded after 48 hours and a request expires after 168 hours.', { exact: true }).waitFor();
    const approvals = JSON.parse((await api.get('/api/landlords/settings')).body).data;
    expect(approvals).toEqual({ default_approval_limit_pence: null, reminder_after_hours: 48, expires_after_hours: 168 });
    await axe(page, 'agency settings with approvals');

    // 7. The property's Awaab's Law scope: stated as social housing.
    await page.goto(`${baseUrl}/properties/${flat.uuid}`);
    await page.getByRole('heading', { name: "Awaab's Law", exact: true }).waitFor();
    await page.getByRole('button', { name: 'Change tenure or nation', exact: true }).click();
    await page.getByLabel('Tenure', { exact: true }).selectOption('social');
    await axe(page, 'property tenure form');
    await page.getByRole('button', { name: 'Save tenure and nation', exact: true }).click();
    await page.getByText('Saved. The deadlines of hazards reported here follow at once.', { exact: true }).waitFor();
    expect(JSON.parse((await api.get(`/api/hazards/properties/${flat.uuid}/scope`)).body).data.tenure).toBe('social');

    // 8. A custom compliance type renamed in its dialog.
    const made = await api.post('/api/compliance/types', { code: 'pat_testing', name: 'PAT testing', interval_months: 12, required_document: 'PAT test report' });
    expect(made.statusCode, made.body).toBe(201);
    await page.goto(`${baseUrl}/compliance`);
    await page.getByRole('button', { name: 'Rename: PAT testing', exact: true }).click();
    await page.getByLabel('New name', { exact: false }).fill('Portable appliance testing');
    await page.getByRole('button', { name: 'Save name', exact: true }).click();
    await page.getByText('"PAT testing" is now "Portable appliance testing".', { exact: true }).waitFor();
    expect((await t.db.selectFrom('compliance_item_types').select('name').where('code', '=', 'pat_testing').executeTakeFirstOrThrow()).name).toBe('Portable appliance testing');

    // 9. Buildings: none yet, one added (a missing postcode told beside its field), renamed, a lift recorded.
    await page.goto(`${baseUrl}/buildings`);
    await page.getByText('No buildings yet. Add a block of flats below', { exact: false }).waitFor();
    await axe(page, 'buildings, none yet');
    const addForm = page.getByRole('form', { name: 'Add a building', exact: true });
    await addForm.getByLabel('Building name', { exact: false }).fill('Aire Court');
    await addForm.getByLabel('Street', { exact: true }).fill('Wharf Street');
    await addForm.getByLabel('Town', { exact: false }).fill('Leeds');
    await page.getByRole('button', { name: 'Add building', exact: true }).click();
    await page.getByText('Type the postcode, such as LS1 4AP.', { exact: true }).waitFor();
    await addForm.getByLabel('Postcode', { exact: false }).fill('ls1 4ap');
    await page.getByRole('button', { name: 'Add building', exact: true }).click();
    await page.getByRole('heading', { name: 'Aire Court, Wharf Street', exact: true, level: 1 }).waitFor();
    await page.getByText('None yet. Add each flat and the communal areas as a property', { exact: false }).waitFor();
    await axe(page, 'a building');
    await page.getByLabel('Building name', { exact: false }).fill('Aire Court North');
    await page.getByRole('button', { name: 'Save building', exact: true }).click();
    await page.getByRole('heading', { name: 'Aire Court North, Wharf Street', exact: true, level: 1 }).waitFor();
    const building = await t.db.selectFrom('buildings').selectAll().where('agency_id', '=', agency.id).executeTakeFirstOrThrow();
    expect([building.building_name, building.postcode]).toEqual(['Aire Court North', 'LS1 4AP']);
    await page.getByRole('button', { name: 'It has a passenger lift', exact: true }).click();
    await page.getByRole('alertdialog').getByText('Record a passenger lift?', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'It has a lift', exact: true }).click();
    await page.getByText('Recorded: the building has a passenger lift.', { exact: false }).waitFor();
  });
});
