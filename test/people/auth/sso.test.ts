/**
 * docs/security.md "Single sign-on": OpenID Connect per agency against real providers started
 * here (oidc-provider as a Microsoft Entra ID-like and a Google Workspace-like tenant, over HTTP),
 * the whole authorization code flow with PKCE followed as a browser would: the start redirect, the
 * provider's sign-in form, its redirect back, and the callback that starts a browser session.
 * Each refusal (wrong audience, wrong issuer, replayed state, unverified e-mail, another domain,
 * a user disabled at the provider or here, another browser, an expired start) answers 401 with its
 * reason and starts no session; a session ends with the provider's ID token; an agency that
 * requires single sign-on refuses staff passwords.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, Client, createAgency, createBranch, createUser, login, TEST_PASSWORD, userClient, type TestApp } from '../../helpers/app.ts';
import { signInAtProvider, startTestProvider, type TestProvider } from '../../helpers/oidc-server.ts';

const PUBLIC_URL = 'https://caretaker.test';
const REDIRECT = `${PUBLIC_URL}/api/auth/sso/callback`;
const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

let t: TestApp;
let entra: TestProvider;
let google: TestProvider;
let northgate: { agency: { id: number; uuid: string }; branch: { id: number; uuid: string }; admin: Client };
let harbour: { agency: { id: number; uuid: string }; branch: { id: number; uuid: string }; admin: Client };

beforeAll(async () => {
  t = await buildTestApp({ CARETAKER_PUBLIC_URL: PUBLIC_URL, CARETAKER_SSO_ALLOW_HTTP: 'true' });
  entra = await startTestProvider('entra', REDIRECT);
  google = await startTestProvider('google', REDIRECT);
  northgate = await agencyWith('Northgate Lettings');
  harbour = await agencyWith('Harbour Homes');
  const e = await northgate.admin.put('/api/auth/sso/settings', {
    provider: 'microsoft', issuer: entra.issuer, client_id: entra.clientId, client_secret: entra.clientSecret, domains: ['northgate-lettings.co.uk'],
  });
  expect(e.statusCode, e.body).toBe(200);
  const g = await harbour.admin.put('/api/auth/sso/settings', {
    provider: 'google', issuer: google.issuer, client_id: google.clientId, client_secret: google.clientSecret, domains: ['harbour-homes.com'],
    create_users: true, default_role: 'agent', default_branch_uuid: harbour.branch.uuid,
  });
  expect(g.statusCode, g.body).toBe(200);
}, 60_000);

afterAll(async () => {
  await entra?.close();
  await google?.close();
  await t?.close();
});

async function agencyWith(name: string) {
  const agency = await createAgency(t.db, name);
  const branch = await createBranch(t.db, agency.id);
  const { client } = await userClient(t, { role: 'admin', agencyId: agency.id });
  return { agency, branch, admin: client };
}

/**
 * The browser's round trip: GET start, the provider's pages, GET callback with the binding cookie.
 * @returns the start answer, the provider's answer (redirect URI), the callback's answer and its session cookie
 */
async function sso(agencyUuid: string, login: string, password = 'provider-password', options: { keepBrowserCookie?: boolean } = {}) {
  const start = await t.app.inject({ method: 'GET', url: `/api/auth/sso/${agencyUuid}/start?return_to=/jobs`, headers: { accept: 'text/html', 'user-agent': DESKTOP } });
  expect(start.statusCode, start.body).toBe(302);
  const browser = start.cookies.find((c) => c.name === 'caretaker_sso')!.value;
  const answer = await signInAtProvider(String(start.headers.location), REDIRECT, login, password);
  const callback = await t.app.inject({
    method: 'GET',
    url: `${answer.pathname}${answer.search}`,
    headers: { accept: 'application/json', 'user-agent': DESKTOP },
    ...(options.keepBrowserCookie === false ? {} : { cookies: { caretaker_sso: browser } }),
  });
  return { start, browser, answer, callback, session: callback.cookies.find((c) => c.name === 'caretaker_session')?.value };
}

/** An activity entry's details as an object. */
const details = (d: unknown) => (typeof d === 'string' ? JSON.parse(d) : d) as Record<string, unknown>;
const me = (session: string) => t.app.inject({ method: 'GET', url: '/api/auth/me', cookies: { caretaker_session: session } });
const sessionsOf = (userId: number) => t.db.selectFrom('auth_tokens').selectAll().where('user_id', '=', userId).execute();
const failures = (reason: string) =>
  t.db.selectFrom('activity_log').select('details').where('action', '=', 'auth.sso_failed').execute()
    .then((rows) => rows.filter((r) => details(r.details).reason === reason));

/** A refusal: 401 (unless told), the reason, no session cookie and no session row. */
async function expectRefused(result: Awaited<ReturnType<typeof sso>>, reason: string, userId?: number, status = 401) {
  expect(result.callback.statusCode, result.callback.body).toBe(status);
  expect(result.callback.json()).toMatchObject({ success: false, reason });
  expect(result.session).toBeUndefined();
  if (userId !== undefined) expect(await sessionsOf(userId)).toHaveLength(0);
  expect((await failures(reason)).length).toBeGreaterThan(0);
}

describe('settings: PUT/GET/DELETE /api/auth/sso/settings', () => {
  it('shows the settings without the secret, with the redirect URI and scopes to register', async () => {
    const res = await northgate.admin.get('/api/auth/sso/settings');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      provider: 'microsoft', issuer: entra.issuer, client_id: entra.clientId, client_secret_set: true, domains: ['northgate-lettings.co.uk'],
      enabled: true, create_users: false, default_role: null, default_branch_uuid: null, require_for_staff: false,
      redirect_uri: REDIRECT, scopes: 'openid email profile', updated_at: expect.any(String),
    });
    expect(res.body).not.toContain(entra.clientSecret);
  });

  it('refuses bad settings at the edge and in the service, changing nothing', async () => {
    const { admin } = await agencyWith('Bad settings');
    const base = { provider: 'microsoft', issuer: entra.issuer, client_id: entra.clientId, client_secret: entra.clientSecret, domains: ['bad-settings.co.uk'] };
    const cases: Array<[object, string]> = [
      [{ ...base, provider: 'okta' }, 'provider'],
      [{ ...base, issuer: 'not a url' }, 'issuer'],
      [{ ...base, domains: [] }, 'domains'],
      [{ ...base, domains: ['not a domain'] }, 'domains'],
      [{ ...base, domains: ['gmail.com'] }, 'gmail.com is a public mail service'],
      [{ ...base, domains: ['northgate-lettings.co.uk'] }, 'already signs in to another agency'],
      [{ ...base, client_secret: undefined }, 'client_secret'],
      [{ ...base, create_users: true }, 'default_role'],
      [{ ...base, create_users: true, default_role: 'agent' }, 'default_branch_uuid'],
      [{ ...base, issuer: 'http://127.0.0.1:9/nothing-here' }, 'discovery document could not be read'],
    ];
    for (const [body, says] of cases) {
      const res = await admin.put('/api/auth/sso/settings', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toContain(says);
    }
    expect((await admin.get('/api/auth/sso/settings')).json().data).toBeNull();
  });

  it('is for agency admins only: an agent and SysOps get 403', async () => {
    const agent = await userClient(t, { role: 'agent', agencyId: northgate.agency.id, branchId: northgate.branch.id });
    expect((await agent.client.get('/api/auth/sso/settings')).statusCode).toBe(403);
    const sysops = await userClient(t, { role: 'sysops' });
    expect((await sysops.client.get('/api/auth/sso/settings')).statusCode).toBe(403);
  });

  it('finds the single sign-on of an e-mail domain or an agency for the sign-in page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/sso/discover?email=Ann@Northgate-Lettings.co.uk' });
    expect(res.json().data).toEqual({ agency_uuid: northgate.agency.uuid, agency_name: 'Northgate Lettings', provider: 'microsoft', start_url: `/api/auth/sso/${northgate.agency.uuid}/start` });
    expect((await t.app.inject({ method: 'GET', url: `/api/auth/sso/discover?agency=${harbour.agency.uuid}` })).json().data.provider).toBe('google');
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/sso/discover?email=someone@elsewhere.com' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/sso/discover' })).statusCode).toBe(400);
  });
});

describe('the code flow with PKCE against an Entra-like tenant', () => {
  it('redirects to the provider with state, nonce, PKCE S256 and the scopes, and binds the browser', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/auth/sso/${northgate.agency.uuid}/start?login_hint=ann@northgate-lettings.co.uk` });
    expect(res.statusCode).toBe(302);
    const url = new URL(String(res.headers.location));
    expect(url.origin + url.pathname).toBe(`${entra.issuer}/auth`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: entra.clientId, redirect_uri: REDIRECT, response_type: 'code', scope: 'openid email profile',
      code_challenge_method: 'S256', login_hint: 'ann@northgate-lettings.co.uk',
    });
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('nonce')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(res.cookies.find((c) => c.name === 'caretaker_sso')).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/api/auth/sso', maxAge: 600 });
    const stored = await t.db.selectFrom('sso_states').selectAll().where('agency_id', '=', northgate.agency.id).orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(stored.state_hash).not.toBe(url.searchParams.get('state'));
  });

  it('signs an existing agent in by verified e-mail (xms_edov): a browser session only, ending with the ID token', async () => {
    const user = await createUser(t.db, { role: 'agent', agencyId: northgate.agency.id, branchId: northgate.branch.id, email: 'ann@northgate-lettings.co.uk' });
    entra.accounts.set('ann', { password: 'provider-password', email: 'Ann@Northgate-Lettings.co.uk', name: 'Ann Smith', verified: true });
    const r = await sso(northgate.agency.uuid, 'ann');
    expect(r.answer.searchParams.get('iss')).toBe(entra.issuer);
    expect(r.callback.statusCode, r.callback.body).toBe(302);
    expect(r.callback.headers.location).toBe('/jobs');
    const cookie = r.callback.cookies.find((c) => c.name === 'caretaker_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/', maxAge: 3600 });
    const who = await me(r.session!);
    expect(who.statusCode).toBe(200);
    expect(who.json().data).toMatchObject({ email: 'ann@northgate-lettings.co.uk', session: { kind: 'session' } });
    const rows = await sessionsOf(user.id);
    expect(rows.map((x) => x.kind)).toEqual(['session']);
    expect(new Date(rows[0]!.expires_at).getTime()).toBe(t.clock.now().getTime() + 3600 * 1000);
    const log = await t.db.selectFrom('activity_log').select('details').where('user_id', '=', user.id).where('action', '=', 'auth.sso_session_start').executeTakeFirstOrThrow();
    expect(details(log.details)).toMatchObject({ issuer: entra.issuer, subject: 'ann', provider: 'microsoft', created: false, session_seconds: 3600 });

    // The session ends within the provider's token lifetime (1 hour), even while in use.
    for (const minutes of [20, 40]) {
      t.clock.advance(20 * 60);
      const during = await me(r.session!);
      expect(during.statusCode, `after ${minutes} minutes: ${during.body}`).toBe(200);
    }
    t.clock.advance(20 * 60);
    const ended = await me(r.session!);
    expect(ended.statusCode).toBe(401);
    expect(ended.json()).toMatchObject({ reason: 'expired' });
  });

  it('refuses the replayed state: the same answer a second time starts nothing', async () => {
    entra.accounts.set('ben', { password: 'provider-password', email: 'ben@northgate-lettings.co.uk', name: 'Ben', verified: true });
    const user = await createUser(t.db, { role: 'admin', agencyId: northgate.agency.id, email: 'ben@northgate-lettings.co.uk' });
    const first = await sso(northgate.agency.uuid, 'ben');
    expect(first.callback.statusCode).toBe(302);
    const again = await t.app.inject({ method: 'GET', url: `${first.answer.pathname}${first.answer.search}`, cookies: { caretaker_sso: first.browser } });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ success: false, reason: 'replayed_state', error: 'This sign-in was already used. Please start again from the sign-in page.' });
    expect(again.cookies.find((c) => c.name === 'caretaker_session')).toBeUndefined();
    expect(await sessionsOf(user.id)).toHaveLength(1);
  });

  it('refuses an ID token for another audience', async () => {
    const user = await createUser(t.db, { role: 'agent', agencyId: northgate.agency.id, branchId: northgate.branch.id, email: 'cat@northgate-lettings.co.uk' });
    entra.accounts.set('cat', { password: 'provider-password', email: 'cat@northgate-lettings.co.uk', name: 'Cat', verified: true });
    entra.tamper = { aud: 'another-application' };
    await expectRefused(await sso(northgate.agency.uuid, 'cat'), 'wrong_audience', user.id);
  });

  it('refuses an ID token of another issuer (another tenant)', async () => {
    const user = await createUser(t.db, { role: 'agent', agencyId: northgate.agency.id, branchId: northgate.branch.id, email: 'dan@northgate-lettings.co.uk' });
    entra.accounts.set('dan', { password: 'provider-password', email: 'dan@northgate-lettings.co.uk', name: 'Dan', verified: true });
    entra.tamper = { iss: entra.issuer.replace('72f988bf', '00000000') };
    await expectRefused(await sso(northgate.agency.uuid, 'dan'), 'wrong_issuer', user.id);
  });

  it('refuses an e-mail the tenant has not verified (no xms_edov)', async () => {
    const user = await createUser(t.db, { role: 'agent', agencyId: northgate.agency.id, branchId: northgate.branch.id, email: 'eve@northgate-lettings.co.uk' });
    entra.accounts.set('eve', { password: 'provider-password', email: 'eve@northgate-lettings.co.uk', name: 'Eve', verified: false });
    await expectRefused(await sso(northgate.agency.uuid, 'eve'), 'email_unverified', user.id);
  });

  it("refuses an e-mail outside the agency's domains, even of an existing account", async () => {
    const user = await createUser(t.db, { role: 'agent', agencyId: northgate.agency.id, branchId: northgate.branch.id, email: 'fay@gmail-lookalike.com' });
    entra.accounts.set('fay', { password: 'provider-password', email: 'fay@gmail-lookalike.com', name: 'Fay', verified: true });
    await expectRefused(await sso(northgate.agency.uuid, 'fay'), 'other_domain', user.id);
  });

  it('refuses a user disabled at the provider: the provider ends the sign-in, no session', async () => {
    const user = await createUser(t.db, { role: 'agent', agencyId: northgate.agency.id, branchId: northgate.branch.id, email: 'gus@northgate-lettings.co.uk' });
    entra.accounts.set('gus', { password: 'provider-password', email: 'gus@northgate-lettings.co.uk', name: 'Gus', verified: true, disabled: true });
    const r = await sso(northgate.agency.uuid, 'gus');
    expect(r.answer.searchParams.get('error')).toBe('access_denied');
    await expectRefused(r, 'provider_refused', user.id);
    expect(r.callback.json().error).toContain('The user account is disabled');
  });

  it('refuses an account disabled in Caretaker, and an account of another agency', async () => {
    const disabled = await createUser(t.db, { role: 'agent', agencyId: northgate.agency.id, branchId: northgate.branch.id, email: 'hal@northgate-lettings.co.uk', status: 'disabled' });
    entra.accounts.set('hal', { password: 'provider-password', email: 'hal@northgate-lettings.co.uk', name: 'Hal', verified: true });
    await expectRefused(await sso(northgate.agency.uuid, 'hal'), 'account_disabled', disabled.id);
    const foreign = await createUser(t.db, { role: 'agent', agencyId: harbour.agency.id, branchId: harbour.branch.id, email: 'ivy@northgate-lettings.co.uk' });
    entra.accounts.set('ivy', { password: 'provider-password', email: 'ivy@northgate-lettings.co.uk', name: 'Ivy', verified: true });
    await expectRefused(await sso(northgate.agency.uuid, 'ivy'), 'not_in_agency', foreign.id);
  });

  it('refuses an unknown e-mail when the agency does not create accounts', async () => {
    entra.accounts.set('jay', { password: 'provider-password', email: 'jay@northgate-lettings.co.uk', name: 'Jay', verified: true });
    await expectRefused(await sso(northgate.agency.uuid, 'jay'), 'no_account');
    expect(await t.db.selectFrom('users').select('id').where('email', '=', 'jay@northgate-lettings.co.uk').executeTakeFirst()).toBeUndefined();
  });

  it('refuses an answer brought to another browser, and a start older than 10 minutes', async () => {
    const user = await createUser(t.db, { role: 'agent', agencyId: northgate.agency.id, branchId: northgate.branch.id, email: 'kim@northgate-lettings.co.uk' });
    entra.accounts.set('kim', { password: 'provider-password', email: 'kim@northgate-lettings.co.uk', name: 'Kim', verified: true });
    await expectRefused(await sso(northgate.agency.uuid, 'kim', 'provider-password', { keepBrowserCookie: false }), 'other_browser', user.id);

    const start = await t.app.inject({ method: 'GET', url: `/api/auth/sso/${northgate.agency.uuid}/start` });
    const answer = await signInAtProvider(String(start.headers.location), REDIRECT, 'kim', 'provider-password');
    t.clock.advance(601);
    const late = await t.app.inject({ method: 'GET', url: `${answer.pathname}${answer.search}`, cookies: { caretaker_sso: start.cookies[0]!.value } });
    expect(late.statusCode).toBe(401);
    expect(late.json().reason).toBe('expired_state');
    expect(await sessionsOf(user.id)).toHaveLength(0);
  });

  it('shows a browser a page with the reason, and answers an unknown state', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/sso/callback?code=abc&state=forged', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('Single sign-on failed');
    expect(res.body).toContain('This sign-in link is not valid.');
    expect(res.body).toContain('<code>unknown_state</code>');
    const none = await t.app.inject({ method: 'GET', url: '/api/auth/sso/callback' });
    expect(none.json()).toMatchObject({ reason: 'unknown_state' });
  });

  it('answers malformed requests with 400, never 500', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/sso/not-a-uuid/start' })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: `/api/auth/sso/callback?state=${'x'.repeat(600)}` })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/sso/discover?email=nobody' })).statusCode).toBe(400);
    const res = await northgate.admin.put('/api/auth/sso/settings', { provider: 'microsoft', issuer: 'https://[::1', client_id: 'x', domains: ['northgate-lettings.co.uk'] });
    expect(res.statusCode).toBe(400);
  });

  it('answers 404 for an agency without single sign-on', async () => {
    const other = await createAgency(t.db);
    const res = await t.app.inject({ method: 'GET', url: `/api/auth/sso/${other.uuid}/start` });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ reason: 'not_configured' });
  });
});

describe('a Google-like tenant that creates accounts on first sign-in', () => {
  it('sends hd, creates the account with the default role and branch, and signs it in', async () => {
    google.accounts.set('liz', { password: 'provider-password', email: 'liz@harbour-homes.com', name: 'Liz Brown', verified: true });
    const r = await sso(harbour.agency.uuid, 'liz');
    expect(new URL(String(r.start.headers.location)).searchParams.get('hd')).toBe('harbour-homes.com');
    expect(r.callback.statusCode, r.callback.body).toBe(302);
    const created = await t.db.selectFrom('users').innerJoin('roles', 'roles.id', 'users.role_id').select(['users.id', 'users.name', 'users.agency_id', 'users.branch_id', 'users.status', 'roles.code'])
      .where('email', '=', 'liz@harbour-homes.com').executeTakeFirstOrThrow();
    expect(created).toMatchObject({ name: 'Liz Brown', agency_id: harbour.agency.id, branch_id: harbour.branch.id, status: 'active', code: 'agent' });
    expect((await me(r.session!)).json().data.email).toBe('liz@harbour-homes.com');
    // Signing in again matches the account it created.
    const again = await sso(harbour.agency.uuid, 'liz');
    expect(again.callback.statusCode).toBe(302);
    expect(await t.db.selectFrom('users').select('id').where('email', '=', 'liz@harbour-homes.com').execute()).toHaveLength(1);
  });

  it('refuses email_verified false, and creates nothing', async () => {
    google.accounts.set('max', { password: 'provider-password', email: 'max@harbour-homes.com', name: 'Max', verified: false });
    await expectRefused(await sso(harbour.agency.uuid, 'max'), 'email_unverified');
    expect(await t.db.selectFrom('users').select('id').where('email', '=', 'max@harbour-homes.com').executeTakeFirst()).toBeUndefined();
  });

  it('refuses a user of another domain, and creates nothing', async () => {
    google.accounts.set('ned', { password: 'provider-password', email: 'ned@other-agency.com', name: 'Ned', verified: true });
    await expectRefused(await sso(harbour.agency.uuid, 'ned'), 'other_domain');
    expect(await t.db.selectFrom('users').select('id').where('email', '=', 'ned@other-agency.com').executeTakeFirst()).toBeUndefined();
  });

  it('a user removed at the provider cannot start a new session', async () => {
    google.accounts.set('oli', { password: 'provider-password', email: 'oli@harbour-homes.com', name: 'Oli', verified: true });
    expect((await sso(harbour.agency.uuid, 'oli')).callback.statusCode).toBe(302);
    google.accounts.delete('oli');
    const r = await sso(harbour.agency.uuid, 'oli');
    expect(r.answer.searchParams.get('error')).toBe('access_denied');
    await expectRefused(r, 'provider_refused');
  });
});

describe('an agency that requires single sign-on for staff', () => {
  it('refuses staff passwords on every password sign-in with a clear message; tenants and other agencies are unaffected', async () => {
    const ag = await agencyWith('Strict Lettings');
    const agent = await createUser(t.db, { role: 'agent', agencyId: ag.agency.id, branchId: ag.branch.id });
    const adminUser = await createUser(t.db, { role: 'admin', agencyId: ag.agency.id });
    const tenant = await createUser(t.db, { role: 'tenant', agencyId: ag.agency.id });
    const apiToken = await login(t.app, adminUser.email);
    const put = await new Client(t.app, apiToken).put('/api/auth/sso/settings', {
      provider: 'other', issuer: entra.issuer, client_id: entra.clientId, client_secret: entra.clientSecret, domains: ['strict-lettings.co.uk'], require_for_staff: true,
    });
    expect(put.statusCode, put.body).toBe(200);
    const message = 'Your agency requires single sign-on for staff: use "Sign in with your organisation" instead of a password';
    for (const url of ['/api/auth/session', '/api/auth/login', '/api/security/mobile-auth']) {
      for (const who of [agent, adminUser]) {
        const res = await t.app.inject({ method: 'POST', url, payload: { email: who.email, password: TEST_PASSWORD } });
        expect(res.statusCode, `${url} ${who.email}`).toBe(403);
        expect(res.json()).toEqual({ success: false, error: message });
      }
    }
    const tenantIn = await t.app.inject({ method: 'POST', url: '/api/auth/session', payload: { email: tenant.email, password: TEST_PASSWORD } });
    expect(tenantIn.statusCode).toBe(200);
    const refused = await t.db.selectFrom('activity_log').select('details').where('user_id', '=', agent.id).where('action', '=', 'auth.session_refused').executeTakeFirstOrThrow();
    expect(details(refused.details)).toEqual({ reason: 'sso_required' });

    // Removing single sign-on lets passwords in again.
    expect((await new Client(t.app, apiToken).delete('/api/auth/sso/settings')).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/session', payload: { email: agent.email, password: TEST_PASSWORD } })).statusCode).toBe(200);
  });
});
