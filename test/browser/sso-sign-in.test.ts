/**
 * Single sign-on from the console in headless Chromium (docs/console.md "Single sign-on";
 * docs/security.md "Single sign-on"): the agency's sign-in link (/sign-in?agency=<uuid>) shows
 * "Sign in with Google"; pressed, the browser goes to a real OpenID provider started here
 * (oidc-provider as a Google Workspace-like tenant, test/helpers/oidc-server.ts), signs in on its
 * page, comes back through the callback and lands signed in on the console's dashboard, in a
 * browser session (no bearer token). A person the provider does not know gets its refusal, and no
 * session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgency, createBranch, createUser, userClient, type TestApp } from '../helpers/app.ts';
import { BrowserSession, CHROMIUM, DESKTOP, serveConsoleOnLocalhost } from '../helpers/browser.ts';
import { startTestProvider, type TestProvider } from '../helpers/oidc-server.ts';

const TITLE = CHROMIUM ? 'single sign-on from the console' : 'single sign-on from the console (skipped: Debian chromium is not installed)';

describe.skipIf(!CHROMIUM)(TITLE, () => {
  let t: TestApp;
  let google: TestProvider;
  const session = new BrowserSession();
  let baseUrl: string;
  let agency: { id: number; uuid: string };
  let agent: { id: number; email: string };

  beforeAll(async () => {
    ({ t, baseUrl } = await serveConsoleOnLocalhost({ CARETAKER_SSO_ALLOW_HTTP: 'true' }));
    google = await startTestProvider('google', `${baseUrl}/api/auth/sso/callback`);
    agency = await createAgency(t.db, 'Harbour Homes');
    const branch = await createBranch(t.db, agency.id, 'Leeds');
    agent = await createUser(t.db, { role: 'agent', agencyId: agency.id, branchId: branch.id, name: 'Gina Agent', email: 'gina@harbour-homes.com' });
    google.accounts.set('gina', { password: 'provider-password', email: 'gina@harbour-homes.com', name: 'Gina Agent', verified: true });
    const { client: admin } = await userClient(t, { role: 'admin', agencyId: agency.id });
    const put = await admin.put('/api/auth/sso/settings', {
      provider: 'google', issuer: google.issuer, client_id: google.clientId, client_secret: google.clientSecret, domains: ['harbour-homes.com'],
    });
    expect(put.statusCode, put.body).toBe(200);
    await session.launch();
  }, 300_000);
  afterAll(() => session.close(google, t));

  it('signs in with Google through the provider and lands on the signed-in console', async () => {
    const page = await session.page(DESKTOP);
    await page.goto(`${baseUrl}/sign-in?agency=${agency.uuid}`);
    await page.getByText('Harbour Homes uses single sign-on.', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Sign in with Google', exact: true }).click();
    // The provider's own sign-in page.
    await page.waitForURL((url) => url.origin === new URL(google.issuer).origin);
    await page.locator('input[name="login"]').fill('gina');
    await page.locator('input[name="password"]').fill('provider-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    // Back at the console, signed in.
    await page.waitForURL((url) => url.origin === baseUrl);
    await page.locator('.user-toggle').waitFor({ state: 'attached' });
    const me = await page.evaluate(async () => (await (await fetch('/api/auth/me')).json()) as { data: { email: string } });
    expect(me.data.email).toBe(agent.email);
    const tokens = await t.db.selectFrom('auth_tokens').select(['kind', 'revoked_at']).where('user_id', '=', agent.id).execute();
    expect(tokens).toEqual([{ kind: 'session', revoked_at: null }]);
    const actions = (await t.db.selectFrom('activity_log').select('action').where('user_id', '=', agent.id).execute()).map((r) => r.action);
    expect(actions).toContain('auth.sso_session_start');
  });

  it('a person the provider refuses comes back to no session', async () => {
    const page = await session.page(DESKTOP);
    await page.goto(`${baseUrl}/sign-in?agency=${agency.uuid}`);
    await page.getByRole('button', { name: 'Sign in with Google', exact: true }).click();
    await page.waitForURL((url) => url.origin === new URL(google.issuer).origin);
    await page.locator('input[name="login"]').fill('gina');
    await page.locator('input[name="password"]').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.origin === baseUrl);
    expect((await page.context().cookies(baseUrl)).map((c) => c.name)).not.toContain('caretaker_session');
  });
});
