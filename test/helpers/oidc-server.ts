/**
 * A real OpenID Connect provider for the single sign-on tests (docs/security.md "Single
 * sign-on"): the oidc-provider package (OpenID-certified) on a loopback port, configured as a
 * Microsoft Entra ID-like tenant (issuer `<origin>/<tenant id>/v2.0`, `xms_edov` instead of
 * `email_verified`, `tid`, `preferred_username`) or a Google Workspace-like one (issuer the origin,
 * `email_verified`, `hd`). Its sign-in page is a tiny form this file serves (user name and
 * password); consent is granted at once, as for a first-party app an administrator approved.
 * `tamper` lets a test make the token endpoint answer with an ID token re-signed with the
 * provider's own key but another audience or issuer, as a misbehaving or hostile endpoint would.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import Provider from 'oidc-provider';

export interface ProviderAccount {
  password: string;
  email: string;
  name: string;
  /** Google-like: email_verified; Entra-like: xms_edov (false leaves the claim out). */
  verified: boolean;
  disabled?: boolean;
}

export interface TestProvider {
  kind: 'entra' | 'google';
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, ProviderAccount>;
  /** Next token answers' ID token claims to overwrite (then re-signed), or null. */
  tamper: { aud?: string; iss?: string } | null;
  close(): Promise<void>;
}

/** A cookie jar for one browser at the provider (names only: the provider's paths do not clash). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();
  store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (data += c));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

/**
 * Starts a provider.
 * @param kind entra or google
 * @param redirectUri the relying party's registered redirect URI
 * @param idTokenTtlS lifetime of its ID tokens (both real providers: 3600)
 */
export async function startTestProvider(kind: 'entra' | 'google', redirectUri: string, idTokenTtlS = 3600): Promise<TestProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const tenantId = '72f988bf-86f1-41af-91ab-2d7cd011db47';
  const prefix = kind === 'entra' ? `/${tenantId}/v2.0` : '';
  const issuer = `${origin}${prefix}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: `${kind}-key-1`, alg: 'RS256', use: 'sig' };
  const signingKey = await importJWK(jwk, 'RS256');
  const accounts = new Map<string, ProviderAccount>();
  const clientId = kind === 'entra' ? '0b5c3f1e-6a6d-4f6e-9d1c-2f3a4b5c6d7e' : '123456789012-caretaker.apps.googleusercontent.com';
  const clientSecret = `${kind}-client-secret-${Math.random().toString(36).slice(2)}`;

  const emailClaims = kind === 'entra' ? ['email', 'xms_edov'] : ['email', 'email_verified'];
  const profileClaims = kind === 'entra' ? ['name', 'preferred_username', 'tid'] : ['name', 'hd'];
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], token_endpoint_auth_method: 'client_secret_post' }],
    jwks: { keys: [jwk] },
    claims: { openid: ['sub'], email: emailClaims, profile: profileClaims },
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `${prefix}/interaction/${interaction.uid}` },
    cookies: { keys: ['caretaker-test-cookie-key'] },
    ttl: { IdToken: idTokenTtlS, AccessToken: idTokenTtlS, Interaction: 600, Session: 86_400, Grant: 86_400, AuthorizationCode: 60 },
    findAccount: (_ctx: unknown, id: string) => {
      const acc = accounts.get(id);
      // A disabled or removed user has no account at the provider: a sign-in cannot finish.
      if (!acc || acc.disabled) return undefined;
      const domain = acc.email.slice(acc.email.indexOf('@') + 1);
      return {
        accountId: id,
        claims: () =>
          kind === 'entra'
            ? { sub: id, email: acc.email, ...(acc.verified ? { xms_edov: true } : {}), name: acc.name, preferred_username: acc.email, tid: tenantId }
            : { sub: id, email: acc.email, email_verified: acc.verified, name: acc.name, hd: domain },
      };
    },
  } as never);

  const state: TestProvider = {
    kind, issuer, clientId, clientSecret, accounts, tamper: null,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as { id_token?: string } | undefined;
    if (ctx.path === '/token' && state.tamper && body && typeof body === 'object' && typeof body.id_token === 'string') {
      const claims = { ...decodeJwt(body.id_token), ...state.tamper };
      body.id_token = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: jwk.kid!, typ: 'JWT' }).sign(signingKey);
      state.tamper = null;
    }
  });

  const callback = provider.callback();
  server.on('request', (req: http.IncomingMessage & { originalUrl?: string }, res: http.ServerResponse) => {
    const url = req.url ?? '/';
    if (prefix && url.startsWith(prefix)) {
      req.originalUrl = url;
      req.url = url.slice(prefix.length) || '/';
    }
    if ((req.url ?? '').startsWith('/interaction/')) {
      void interaction(req, res).catch((err: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(err));
      });
      return;
    }
    void callback(req, res);
  });

  /** The provider's sign-in page (GET) and its answer (POST); consent is granted at once. */
  async function interaction(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(`<!doctype html><title>Sign in</title><form method="post" action="${prefix}/interaction/${details.uid}">` +
          '<input name="login"><input name="password" type="password"><button>Sign in</button></form>');
        return;
      }
      const form = new URLSearchParams(await readBody(req));
      const login = form.get('login') ?? '';
      const acc = accounts.get(login);
      const result = !acc || acc.password !== form.get('password')
        ? { error: 'access_denied', error_description: 'The user name or password is incorrect' }
        : acc.disabled
          ? { error: 'access_denied', error_description: 'The user account is disabled' }
          : { login: { accountId: login } };
      await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
      return;
    }
    const { params, session, prompt } = details;
    const grant = details.grantId ? (await provider.Grant.find(details.grantId))! : new provider.Grant({ accountId: session!.accountId, clientId: params.client_id as string });
    const missing = prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
  }

  return state;
}

/**
 * A browser at the provider: follows redirects from `authorizeUrl`, submits the sign-in form with
 * `login` and `password` when asked, and stops at the first redirect to `redirectUri`.
 * @returns the redirect URI with the provider's answer (code, state, iss, or error)
 */
export async function signInAtProvider(authorizeUrl: string, redirectUri: string, login: string, password: string, jar = new CookieJar()): Promise<URL> {
  let url = authorizeUrl;
  let method: 'GET' | 'POST' = 'GET';
  let body: URLSearchParams | undefined;
  for (let hop = 0; hop < 20; hop++) {
    const res = await fetch(url, { method, redirect: 'manual', headers: { cookie: jar.header(), accept: 'text/html' }, ...(body ? { body } : {}) });
    jar.store(res);
    method = 'GET';
    body = undefined;
    if (res.status >= 300 && res.status < 400) {
      const next = new URL(res.headers.get('location')!, url);
      if (next.href.startsWith(redirectUri)) return next;
      url = next.href;
      continue;
    }
    const text = await res.text();
    const action = /<form method="post" action="([^"]+)"/.exec(text);
    if (res.status === 200 && action) {
      url = new URL(action[1]!, url).href;
      method = 'POST';
      body = new URLSearchParams({ login, password });
      continue;
    }
    throw new Error(`provider answered ${res.status} at ${url}: ${text.slice(0, 500)}`);
  }
  throw new Error('too many redirects at the provider');
}
