/**
 * A job's hazard (Awaab's Law) panel and its competing quotes in the console (docs/console.md
 * "A job's hazard and competing quotes"), in headless Chromium on PGlite
 * with axe at 390 px and 1280 px on each new panel and page: an agent records a damp and mould
 * hazard on a social home's job and sees its clocks with their due dates, records the
 * investigation, sends the written summary, opens its letter (a PDF) and records it as posted;
 * then asks two contractors for quotes; one contractor signs in, sees the request under "Quote
 * requests" and quotes; the agent sees the answer. Each change is checked in the database and
 * each page lands again after a reload.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgency, createBranch, createUser, userClient, type TestApp } from '../helpers/app.ts';
import { BrowserSession, checkAtBothWidths, CHROMIUM, DESKTOP, reloadLands, serveConsole } from '../helpers/browser.ts';
import { insertAddress, insertContractor, insertJob, insertTenant } from '../helpers/factories.ts';

const check = checkAtBothWidths;

const TITLE = CHROMIUM ? "A job's hazard panel and competing quotes in the console" : "A job's hazard panel and competing quotes in the console (skipped: Debian chromium is not installed)";

describe.skipIf(!CHROMIUM)(TITLE, () => {
  let t: TestApp;
  const session = new BrowserSession();
  let baseUrl: string;

  beforeAll(async () => {
    ({ t, baseUrl } = await serveConsole());
    await session.launch();
  });
  afterAll(() => session.close(t));

  it('staff record a hazard, its milestones and summary; ask two contractors to quote; a contractor answers', async () => {
    const agency = await createAgency(t.db, 'Headingley Homes');
    const branch = await createBranch(t.db, agency.id, 'Headingley');
    const agent = await createUser(t.db, { role: 'agent', agencyId: agency.id, branchId: branch.id, name: 'Asha Agent' });
    const address = await insertAddress(t.db, { agencyId: agency.id, branchId: branch.id, line1: '14 Ash Grove', postcode: 'LS6 1AX' });
    // Reported an hour before the app's (fixed) clock: milestones recorded "now" come after it.
    const tenant = await insertTenant(t.db, agency.id, [address.id], 'Tom Tenant');
    await t.db.updateTable('tenants').set({ email: 'tom.tenant@example.test' }).where('id', '=', tenant.id).execute();
    const job = await insertJob(t.db, { agency_id: agency.id, branch_id: branch.id, address_id: address.id, tenant_id: tenant.id, title: 'Black mould in the bedroom', status_id: 1 }, new Date(t.clock.now().getTime() - 3_600_000));
    // The home is social housing in England: Awaab's Law's clocks run.
    const api = (await userClient(t, { role: 'agent', agencyId: agency.id, branchId: branch.id })).client;
    const scope = await api.put(`/api/hazards/properties/${address.uuid}/scope`, { tenure: 'social' });
    expect(scope.statusCode, scope.body).toBe(200);
    const heading = `${job.reference}: Black mould in the bedroom`;
    const hazardRow = () => t.db.selectFrom('job_hazards').selectAll().where('job_id', '=', job.id).executeTakeFirst();

    const page = await session.signedIn(baseUrl, agent.email, DESKTOP, { timeoutMs: 20_000 });
    await page.goto(`${baseUrl}/jobs/${job.uuid}`);
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    const panel = page.locator('section.hazard-panel');
    await panel.getByText('No hazard recorded on this job.', { exact: false }).waitFor();

    // Classify: damp and mould, significant.
    await panel.getByRole('button', { name: 'Record a hazard' }).click();
    await panel.getByLabel('Kind of hazard').locator('option[value="damp_and_mould"]').waitFor({ state: 'attached' });
    await check(page, 'job-hazard-form');
    await panel.getByLabel('Kind of hazard').selectOption('damp_and_mould');
    await panel.getByLabel('Severity').selectOption('significant');
    await panel.getByLabel('What was found').fill('Black mould behind the wardrobe, about a square metre.');
    await panel.getByRole('button', { name: 'Record the hazard' }).click();
    await panel.getByText('Hazard recorded; its clocks have started.').waitFor();
    const recorded = await hazardRow();
    expect(recorded).toMatchObject({ category: 'damp_and_mould', severity: 'significant', scope: 'social', investigated_at: null });
    const clocks = panel.getByRole('region', { name: 'Statutory clocks' });
    await clocks.getByRole('row').nth(1).waitFor();
    // Due dates in words ("end of Mon 7 Dec 2026": the working-day clocks end with their last day), states in words.
    expect(await clocks.locator('tbody td:nth-child(2)').first().innerText()).toMatch(/^end of (Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} [A-Z][a-z]{2} \d{4}$/);
    expect(await clocks.locator('tbody td:nth-child(3)').first().innerText()).toMatch(/^(Running|At risk)/);
    await check(page, 'job-hazard');

    // The investigation is finished now.
    await panel.getByLabel('Milestone', { exact: true }).selectOption('investigated');
    await panel.getByRole('button', { name: 'Record milestone' }).click();
    await panel.getByText('"Investigation finished" recorded.').waitFor();
    await expect.poll(async () => (await hazardRow())?.investigated_at).not.toBeNull();
    await clocks.getByText(/^Met: done /).first().waitFor();

    // The written summary.
    await panel.getByLabel('What the investigation found').fill('Condensation from a blocked extractor fan.');
    await panel.getByLabel('What the agency will do').fill('Replace the fan and treat the wall within two weeks.');
    await panel.getByRole('button', { name: 'Send the written summary' }).click();
    await panel.getByText('Written summary sent to the tenant.').waitFor();
    const summarised = await hazardRow();
    expect(summarised?.summary_sent_at).not.toBeNull();
    expect(summarised?.summary_findings).toBe('Condensation from a blocked extractor fan.');

    // The letter is a PDF.
    const letter = panel.getByRole('link', { name: 'Open the letter (PDF)' });
    const href = await letter.getAttribute('href');
    expect(href).toBe(`/api/jobs/${job.uuid}/hazard/summary/letter`);
    const pdf = await page.request.get(`${baseUrl}${href}`);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toContain('application/pdf');
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

    // Posted today.
    await panel.getByRole('button', { name: 'Record the letter as posted' }).click();
    await panel.getByText('Letter recorded as posted.').waitFor();
    const posted = await hazardRow();
    expect(posted).toMatchObject({ summary_delivery_method: 'post' });
    expect(posted?.summary_delivered_at).not.toBeNull();
    await panel.getByText(/Reached the tenant .* by post\./).waitFor();
    await reloadLands(page, heading);
    await panel.getByText(/Reached the tenant .* by post\./).waitFor();

    // Competing quotes: two contractors with e-mail addresses, one with a login.
    const firms = [];
    for (const [name, email] of [['Aire Damp Specialists', 'jobs@aire-damp.test'], ['Kirkstall Builders', 'office@kirkstall.test']] as const) {
      const c = await insertContractor(t.db, agency.id, name);
      await t.db.updateTable('contractors').set({ email }).where('id', '=', c.id).execute();
      firms.push(c);
    }
    const contractorUser = await createUser(t.db, { role: 'contractor', agencyId: agency.id, contractorId: firms[0]!.id, name: 'Ada Aire' });
    await page.goto(`${baseUrl}/jobs/${job.uuid}?tab=money`);
    const quotes = page.locator('section', { has: page.getByRole('heading', { name: 'Competing quotes', level: 2 }) });
    await quotes.getByText('No contractors asked to quote yet.', { exact: false }).waitFor();
    await quotes.getByLabel('Aire Damp Specialists').check();
    await quotes.getByLabel('Kirkstall Builders').check();
    await quotes.getByLabel('Notes for the contractors').fill('Access through the back gate.');
    await quotes.getByRole('button', { name: 'Ask for quotes' }).click();
    await quotes.getByText('Asked Aire Damp Specialists and Kirkstall Builders to quote.').waitFor();
    const request = await t.db.selectFrom('quote_requests').selectAll().where('job_id', '=', job.id).executeTakeFirstOrThrow();
    expect(request).toMatchObject({ status: 'open', notes: 'Access through the back gate.' });
    const invitations = () => t.db.selectFrom('quote_request_invitations').select(['contractor_id', 'status']).where('quote_request_id', '=', request.id).orderBy('contractor_id').execute();
    expect(await invitations()).toEqual([
      { contractor_id: firms[0]!.id, status: 'invited' },
      { contractor_id: firms[1]!.id, status: 'invited' },
    ]);
    await quotes.getByRole('cell', { name: 'Asked, no answer yet' }).first().waitFor();
    await check(page, 'job-quote-requests');
    await reloadLands(page, heading);
    await quotes.getByRole('cell', { name: 'Kirkstall Builders' }).waitFor();

    // The contractor answers in the console.
    const firmPage = await session.signedIn(baseUrl, contractorUser.email, DESKTOP, { timeoutMs: 20_000 });
    await firmPage.getByRole('link', { name: 'Quote requests' }).first().click();
    await firmPage.getByRole('heading', { name: 'Quote requests', level: 1 }).waitFor();
    await firmPage.getByRole('heading', { name: heading, level: 2 }).waitFor();
    await firmPage.getByText('Waiting for your answer').waitFor();
    await check(firmPage, 'quote-invitations');
    await firmPage.getByLabel('Work quoted for').fill('Replace extractor fan, treat and repaint the wall');
    await firmPage.getByLabel('Unit price before VAT (£)').fill('480.00');
    await firmPage.getByLabel('Notes for the agency').fill('One day on site.');
    await firmPage.getByRole('button', { name: 'Send quote' }).click();
    await firmPage.getByText(`Your quote for ${job.reference} was sent.`).waitFor();
    await firmPage.getByText('You sent a quote').waitFor();
    expect(await invitations()).toEqual([
      { contractor_id: firms[0]!.id, status: 'quoted' },
      { contractor_id: firms[1]!.id, status: 'invited' },
    ]);
    const quote = await t.db.selectFrom('quotes').select(['net_pence', 'contractor_id']).where('job_id', '=', job.id).executeTakeFirstOrThrow();
    expect(quote).toEqual({ net_pence: 48000, contractor_id: firms[0]!.id });
    await reloadLands(firmPage, 'Quote requests');
    await firmPage.getByText('You sent a quote').waitFor();

    // The agent sees the answer, cheapest first.
    await quotes.getByRole('button', { name: 'Check for answers' }).click();
    const first = quotes.getByRole('row').nth(1);
    await expect.poll(() => first.innerText()).toContain('Quoted');
    expect(await first.innerText()).toContain('£480.00');
    expect(await first.innerText()).toContain('Aire Damp Specialists');
  });
});
