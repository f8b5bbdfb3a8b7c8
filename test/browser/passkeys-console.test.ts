/**
 * Passkeys in the console, in headless Chromium with its virtual authenticator (DevTools protocol,
 * WebAuthn domain; docs/console.md "Account" and "Signing in"; docs/security.md "Passkeys"): an
 * agent adds a passkey on the Account page under a name, signs in password-less with it from the
 * sign-in page's "Sign in with a passkey", answers the second-factor step of a password sign-in
 * with it, and removes it again. Checked with axe-core at 1280 and 390 px.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgency, createBranch, createUser, TEST_PASSWORD, type TestApp } from '../helpers/app.ts';
import { axeViolations, BrowserSession, CHROMIUM, DESKTOP, PHONE, serveConsoleOnLocalhost, signInConsole } from '../helpers/browser.ts';

const TITLE = CHROMIUM ? 'passkeys in the console' : 'passkeys in the console (skipped: Debian chromium is not installed)';

describe.skipIf(!CHROMIUM)(TITLE, () => {
  let t: TestApp;
  const session = new BrowserSession();
  let baseUrl: string;
  let agent: { id: number; email: string };

  beforeAll(async () => {
    ({ t, baseUrl } = await serveConsoleOnLocalhost());
    const agency = await createAgency(t.db, 'Northgate Lettings');
    const branch = await createBranch(t.db, agency.id, 'Leeds');
    agent = await createUser(t.db, { role: 'agent', agencyId: agency.id, branchId: branch.id, name: 'Amy Agent' });
    await session.launch();
  }, 300_000);
  afterAll(() => session.close(t));

  /** A console page whose browser holds a virtual platform authenticator (resident keys, user verification). */
  async function pageWithAuthenticator(): Promise<Page> {
    const page = await session.page(DESKTOP);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    return page;
  }

  /** Signs the browser out by dropping its cookies, then opens the sign-in page. */
  async function signedOut(page: Page): Promise<void> {
    await page.context().clearCookies();
    await page.goto(`${baseUrl}/sign-in`);
    await page.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
  }

  it('adds a passkey on the Account page, signs in with it password-less and as the second factor, and removes it', async () => {
    const page = await pageWithAuthenticator();
    await signInConsole(page, baseUrl, agent.email, TEST_PASSWORD);
    await page.goto(`${baseUrl}/account`);
    const section = page.getByRole('region', { name: 'Passkeys', exact: true });
    await section.getByText('You have no passkeys yet.', { exact: true }).waitFor();
    await section.getByLabel('Name of the new passkey').fill('Work laptop');
    await section.getByRole('button', { name: 'Add a passkey', exact: true }).click();
    await section.getByText('Passkey "Work laptop" added: you can sign in with it instead of your password.', { exact: true }).waitFor();
    await section.getByText('Work laptop', { exact: true }).waitFor();
    const stored = await t.db.selectFrom('user_passkeys').select(['name', 'last_used_at']).where('user_id', '=', agent.id).execute();
    expect(stored).toEqual([{ name: 'Work laptop', last_used_at: null }]);
    for (const [size, viewport] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
      await page.setViewportSize(viewport);
      expect(await axeViolations(page), `passkeys section ${size}`).toEqual([]);
    }

    // Password-less: no e-mail, no password.
    await signedOut(page);
    for (const [size, viewport] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
      await page.setViewportSize(viewport);
      expect(await axeViolations(page), `sign-in page ${size}`).toEqual([]);
    }
    await page.getByRole('button', { name: 'Sign in with a passkey', exact: true }).click();
    await page.locator('.user-toggle').waitFor({ state: 'attached' });
    expect((await page.evaluate(async () => (await (await fetch('/api/auth/me')).json()) as { data: { email: string } })).data.email).toBe(agent.email);

    // The password now asks for the second factor, which the passkey answers.
    await signedOut(page);
    await page.getByLabel('E-mail address').fill(agent.email);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Two-factor sign-in', exact: true }).waitFor();
    expect(await page.getByLabel('6-digit code from your authenticator app').count()).toBe(0);
    expect(await axeViolations(page), 'second-factor step with a passkey').toEqual([]);
    await page.getByRole('button', { name: 'Use your passkey', exact: true }).click();
    await page.locator('.user-toggle').waitFor({ state: 'attached' });
    const actions = (await t.db.selectFrom('activity_log').select('action').where('user_id', '=', agent.id).execute()).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['user.passkey_add', 'auth.second_factor_passed']));
    expect((await t.db.selectFrom('user_passkeys').select('last_used_at').where('user_id', '=', agent.id).executeTakeFirstOrThrow()).last_used_at).not.toBeNull();

    // Removed after a confirmation: the list is empty and the password alone signs in again.
    await page.goto(`${baseUrl}/account`);
    await section.getByText('last used', { exact: false }).waitFor();
    await section.getByRole('button', { name: 'Remove passkey Work laptop', exact: true }).click();
    await page.getByRole('alertdialog', { name: 'Remove the passkey "Work laptop"?', exact: true }).getByRole('button', { name: 'Remove', exact: true }).click();
    await section.getByText('Passkey "Work laptop" removed.', { exact: true }).waitFor();
    await section.getByText('You have no passkeys yet.', { exact: true }).waitFor();
    expect(await t.db.selectFrom('user_passkeys').select('id').where('user_id', '=', agent.id).execute()).toEqual([]);
    await signedOut(page);
    await signInConsole(page, baseUrl, agent.email, TEST_PASSWORD);
  });
});
