/**
 * The job page's Messages tab in headless Chromium (docs/conversations.md "In the console"): an
 * agent writes to the tenant; the tenant signs in at phone width (390 px), sees the unread badge,
 * opens the thread with the keyboard, reads and replies; the agent sees the reply without a reload
 * (live stream). The tenant and the contractor see only their own thread. Pages are checked with
 * axe-core (WCAG 2.2 A and AA) and the phone page for horizontal overflow; with
 * CONSOLE_SCREENSHOTS=1 they are photographed into docs/conversations/*.png. One PGlite instance.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgency, createBranch, createUser, type TestApp } from '../helpers/app.ts';
import { axeViolations, BrowserSession, CHROMIUM, DESKTOP, PHONE, serveConsole } from '../helpers/browser.ts';
import { insertAddress, insertContractor, insertJob, insertTenant } from '../helpers/factories.ts';

const SHOTS = path.resolve(import.meta.dirname, '../../docs/conversations');
/** "Thu 26 Nov 2026, 14:05" (Europe/London, from the API's created_at_text). */
const LONDON_TIME = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}, \d{2}:\d{2}$/;

/** No axe violations, nothing wider than the viewport; with CONSOLE_SCREENSHOTS=1 also docs/conversations/<name>.png. */
async function checkAndShoot(page: Page, name: string): Promise<void> {
  expect(await axeViolations(page), name).toEqual([]);
  const widths = await page.evaluate(() => {
    const doc = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document;
    return { scroll: doc.documentElement.scrollWidth, client: doc.documentElement.clientWidth };
  });
  expect(widths.scroll, `${name}: horizontal overflow`).toBeLessThanOrEqual(widths.client);
  const shot = await page.screenshot({
    fullPage: true,
    animations: 'disabled',
    ...(process.env.CONSOLE_SCREENSHOTS === '1' ? { path: path.join(SHOTS, `${name}.png`) } : {}),
  });
  expect(shot.length).toBeGreaterThan(1000);
}

const TITLE = CHROMIUM ? 'the Messages tab of the job page in headless Chromium' : 'the Messages tab (skipped: Debian chromium is not installed)';

describe.skipIf(!CHROMIUM)(TITLE, () => {
  let t: TestApp;
  const session = new BrowserSession();
  let baseUrl: string;
  const users: Record<string, string> = {};
  let jobUuid = '';
  let agent: Page;
  let tenant: Page;

  // Generous: the machine that runs the suite is shared and often busy.
  const signedIn = (email: string, viewport: { width: number; height: number }) => session.signedIn(baseUrl, email, viewport, { timeoutMs: 30_000 });

  /** Opens the job page (optionally a tab) and waits until its live stream is subscribed. */
  async function onJobPage(page: Page, query = ''): Promise<void> {
    await Promise.all([
      page.waitForResponse((r) => r.url().includes('/api/events/stream') && r.status() === 200),
      page.goto(`${baseUrl}/jobs/${jobUuid}${query}`).then(() => page.getByRole('heading', { name: 'Details' }).waitFor()),
    ]);
  }

  beforeAll(async () => {
    if (process.env.CONSOLE_SCREENSHOTS === '1') mkdirSync(SHOTS, { recursive: true });
    ({ t, baseUrl } = await serveConsole());
    const now = new Date();
    const agency = await createAgency(t.db, 'Northgate Lettings');
    const branch = await createBranch(t.db, agency.id, 'Leeds');
    const home = await insertAddress(t.db, { agencyId: agency.id, branchId: branch.id, line1: '14 Kirkstall Road', postcode: 'LS3 1HR' }, now);
    const tenant = await insertTenant(t.db, agency.id, [home.id], 'Emily Clarke', now);
    const firm = await insertContractor(t.db, agency.id, 'Aire Heating', now);
    users.agent = (await createUser(t.db, { role: 'agent', agencyId: agency.id, branchId: branch.id, name: 'Amir Agent' })).email;
    users.tenant = (await createUser(t.db, { role: 'tenant', agencyId: agency.id, tenantId: tenant.id, name: 'Emily Clarke' })).email;
    users.contractor = (await createUser(t.db, { role: 'contractor', agencyId: agency.id, contractorId: firm.id, name: 'Dave Aire' })).email;
    const job = await insertJob(
      t.db,
      {
        agency_id: agency.id,
        branch_id: branch.id,
        address_id: home.id,
        tenant_id: tenant.id,
        contractor_id: firm.id,
        reference: 'JOB-900201',
        title: 'Boiler not firing',
        status_id: 4,
        assigned_at: now,
      },
      now,
    );
    jobUuid = job.uuid;
    await session.launch();
  });

  afterAll(() => session.close(t));

  it('the agent sees every thread, the empty state, and writes to the tenant', async () => {
    agent = await signedIn(users.agent!, DESKTOP);
    await onJobPage(agent, '?tab=messages');
    const threads = agent.getByRole('list', { name: 'Threads' });
    for (const name of ['Tenant and agency', 'Contractor and agency', 'Landlord and agency', 'Internal (agency only)']) {
      await threads.getByRole('button', { name: new RegExp(name.replace(/[()]/g, '\\$&')) }).waitFor();
    }
    await agent.getByText('No messages yet. Write to the tenant below; they get it by e-mail and can reply to it.').waitFor();
    expect(await threads.getByRole('button', { name: /Tenant and agency/ }).getAttribute('aria-current')).toBe('true');
    await checkAndShoot(agent, 'agent-empty');
    await agent.getByLabel('Message to the tenant').fill('The plumber can come on Thursday between 8 and 12. Does that suit you?');
    await agent.getByRole('button', { name: 'Send' }).click();
    const log = agent.getByRole('log', { name: 'Messages: Tenant and agency' });
    const sent = log.getByRole('listitem').filter({ hasText: 'Does that suit you?' });
    await sent.waitFor();
    await expect.poll(() => sent.innerText(), { timeout: 30_000 }).toContain('Amir Agent');
    expect(await sent.innerText()).toContain('Agency');
    expect(await sent.innerText()).toContain('in the console');
    expect(await sent.locator('time').innerText()).toMatch(LONDON_TIME);
    expect(await agent.getByLabel('Message to the tenant').inputValue()).toBe('');
    const rows = await t.db.selectFrom('conversation_messages').select(['channel', 'body']).execute();
    expect(rows).toEqual([{ channel: 'web', body: 'The plumber can come on Thursday between 8 and 12. Does that suit you?' }]);
  });

  it('the tenant sees the unread badge, opens the thread with the keyboard, reads and replies; the agent sees the reply without a reload', async () => {
    tenant = await signedIn(users.tenant!, PHONE);
    await onJobPage(tenant);
    const tab = tenant.getByRole('tab', { name: /Messages/ });
    await expect.poll(() => tab.innerText(), { timeout: 30_000 }).toContain('1 unread');
    // Keyboard: from the Notes tab, the arrow key moves to Messages and opens it.
    await tenant.getByRole('tab', { name: 'Notes' }).focus();
    await tenant.keyboard.press('ArrowRight');
    await tenant.getByRole('heading', { name: 'Messages', exact: true }).waitFor();
    expect(await tab.getAttribute('aria-selected')).toBe('true');
    // Only their own thread: no list of threads, no internal thread.
    await tenant.getByRole('heading', { name: 'Tenant and agency' }).waitFor();
    expect(await tenant.getByRole('list', { name: 'Threads' }).count()).toBe(0);
    expect(await tenant.getByText('Internal (agency only)').count()).toBe(0);
    const log = tenant.getByRole('log', { name: 'Messages: Tenant and agency' });
    await log.getByText('Does that suit you?').waitFor();
    // Opening the thread marks it read: the badge goes and the read is stored.
    await expect.poll(() => tab.innerText(), { timeout: 30_000 }).not.toContain('unread');
    expect(await t.db.selectFrom('conversation_reads').select('read_at').execute()).not.toHaveLength(0);
    await checkAndShoot(tenant, 'tenant-phone');

    // The agent's page is still open on the thread; a mark a reload would wipe.
    await agent.evaluate(() => ((globalThis as unknown as { liveMark: number }).liveMark = 1));
    const reply = tenant.getByLabel('Message to the agency');
    await reply.focus();
    await tenant.keyboard.type('Thursday is fine, I will be in.');
    await tenant.getByRole('button', { name: 'Send' }).focus();
    await tenant.keyboard.press('Enter');
    await log.getByText('Thursday is fine, I will be in.').waitFor();
    const mine = log.getByRole('listitem').filter({ hasText: 'Thursday is fine' });
    expect(await mine.innerText()).toContain('Emily Clarke');

    const seen = agent.getByRole('log', { name: 'Messages: Tenant and agency' }).getByRole('listitem').filter({ hasText: 'Thursday is fine, I will be in.' });
    await seen.waitFor();
    expect(await seen.innerText()).toContain('Tenant');
    expect(await agent.evaluate(() => (globalThis as unknown as { liveMark?: number }).liveMark)).toBe(1);
    await checkAndShoot(agent, 'agent-reply');
  });

  it('the agent sees an unread badge on a thread that is not open, without a reload', async () => {
    await agent
      .getByRole('list', { name: 'Threads' })
      .getByRole('button', { name: /Internal/ })
      .click();
    await agent.getByText('No messages yet. Write below to other agency staff').waitFor();
    await agent.evaluate(() => ((globalThis as unknown as { liveMark: number }).liveMark = 1));
    // The test clock stands still: a minute on, so the new message is after the agent's last read.
    t.clock.advance(60);
    await tenant.getByLabel('Message to the agency').fill('Also, the bathroom tap drips.');
    await tenant.getByRole('button', { name: 'Send' }).click();
    const tenantThread = agent.getByRole('list', { name: 'Threads' }).getByRole('button', { name: /Tenant and agency/ });
    await expect.poll(() => tenantThread.innerText(), { timeout: 30_000 }).toContain('1 unread');
    expect(await tenantThread.innerText()).toContain('Also, the bathroom tap drips.');
    expect(await agent.evaluate(() => (globalThis as unknown as { liveMark?: number }).liveMark)).toBe(1);
  });

  it('the contractor sees only the contractor thread, with what to do in it', async () => {
    const contractor = await signedIn(users.contractor!, PHONE);
    await onJobPage(contractor, '?tab=messages');
    await contractor.getByRole('heading', { name: 'Contractor and agency' }).waitFor();
    await contractor.getByText('No messages yet. Write to the agency below').waitFor();
    expect(await contractor.getByText('Does that suit you?').count()).toBe(0);
    expect(await contractor.getByRole('list', { name: 'Threads' }).count()).toBe(0);
    await checkAndShoot(contractor, 'contractor-phone');
  });
});
