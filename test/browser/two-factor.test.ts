/**
 * Two-factor sign-in in the console, in headless Chromium (docs/console.md "Account";
 * docs/security.md "Two-factor sign-in"): an agent sets up an authenticator app on the Account
 * page from its QR code (the key beside it), confirms it with a code and is shown ten recovery
 * codes once; a wrong code is refused in words; an administrator requires a second factor of
 * staff on the agency settings page and sees the retention schedule with the law's periods.
 * Checked with axe-core at 1280 and 390 px.
 */
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgency, createBranch, createUser, type TestApp } from '../helpers/app.ts';
import { axeViolations, BrowserSession, CHROMIUM, DESKTOP, PHONE, serveConsole } from '../helpers/browser.ts';

const TITLE = CHROMIUM ? 'two-factor sign-in in the console' : 'two-factor sign-in in the console (skipped: Debian chromium is not installed)';

/** The code an authenticator app shows now for a base32 key. */
const codeFor = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate();

describe.skipIf(!CHROMIUM)(TITLE, () => {
  let t: TestApp;
  const session = new BrowserSession();
  let baseUrl: string;
  let agentEmail = '';
  let adminEmail = '';

  beforeAll(async () => {
    ({ t, baseUrl } = await serveConsole());
    const agency = await createAgency(t.db, 'Northgate Lettings');
    const branch = await createBranch(t.db, agency.id, 'Leeds');
    agentEmail = (await createUser(t.db, { role: 'agent', agencyId: agency.id, branchId: branch.id, name: 'Amy Agent' })).email;
    adminEmail = (await createUser(t.db, { role: 'admin', agencyId: agency.id, name: 'Ada Admin' })).email;
    await session.launch();
  }, 300_000);
  afterAll(() => session.close(t));

  it('an agent sets up an authenticator app on the Account page and is shown recovery codes once', async () => {
    const page = await session.signedIn(baseUrl, agentEmail, DESKTOP);
    await page.goto(`${baseUrl}/account`);
    const section = page.getByRole('region', { name: 'Two-factor sign-in' });
    await section.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await section.getByRole('img', { name: 'QR code to add Caretaker to an authenticator app' }).waitFor();
    const secret = (await section.locator('code').first().textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    for (const [size, viewport] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
      await page.setViewportSize(viewport);
      expect(await axeViolations(page), `two-factor set-up ${size}`).toEqual([]);
    }
    // A wrong code is refused in words and changes nothing.
    const wrong = codeFor(secret) === '000000' ? '111111' : '000000';
    await section.getByLabel('Code from the app').fill(wrong);
    await section.getByRole('button', { name: 'Turn on' }).click();
    await section.getByRole('alert').waitFor();
    expect(await t.db.selectFrom('user_totp').select('confirmed_at').execute()).toEqual([{ confirmed_at: null }]);
    await section.getByLabel('Code from the app').fill(codeFor(secret));
    await section.getByRole('button', { name: 'Turn on' }).click();
    await section.getByText('Two-factor sign-in is on', { exact: false }).waitFor();
    expect(await section.locator('.recovery-codes li').count()).toBe(10);
    await section.getByText('10 recovery codes left', { exact: false }).waitFor();
    // Shown once: a reload lists none.
    await page.reload();
    await page.getByRole('region', { name: 'Two-factor sign-in' }).getByText('An authenticator app is set up', { exact: false }).waitFor();
    expect(await page.locator('.recovery-codes li').count()).toBe(0);
  });

  it('an administrator requires a second factor of staff and reads the retention schedule', async () => {
    const page = await session.signedIn(baseUrl, adminEmail, DESKTOP);
    await page.goto(`${baseUrl}/settings`);
    const policy = page.getByRole('region', { name: 'Two-factor sign-in for staff' });
    await policy.getByRole('button', { name: 'Require a second factor of staff' }).click();
    await policy.getByText('Staff must now sign in with a second factor', { exact: false }).waitFor();
    expect((await t.db.selectFrom('agencies').select('require_second_factor').where('name', '=', 'Northgate Lettings').executeTakeFirstOrThrow()).require_second_factor).toBe(true);
    const retention = page.getByRole('region', { name: 'How long records are kept' });
    await retention.getByRole('button', { name: 'Save the schedule' }).waitFor();
    expect(Number(await retention.getByRole('spinbutton').first().inputValue())).toBeGreaterThan(0);
    for (const [size, viewport] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
      await page.setViewportSize(viewport);
      expect(await axeViolations(page), `agency settings ${size}`).toEqual([]);
    }
  });
});
