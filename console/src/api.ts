/**
 * The console's API client: the generated typed client (clients/typescript) on the browser
 * session cookie of spec 5.2, with a fresh CSRF token fetched before every write (spec 5.3). It
 * remembers when the last request was answered (for the idle expiry shown in the header) and tells
 * the session when the server answers 401 (session ended) so the sign-in page comes back, and
 * tells the console's query cache after each accepted write (App.tsx), and tells the offline
 * banner when an answer came from the service worker's saved copies (connection.ts `noteAnswer`).
 */
import { createCaretakerClient } from '../../clients/typescript/src/index.ts';
import { noteAnswer } from './connection.ts';

export { CaretakerError, RateLimitedError } from '../../clients/typescript/src/index.ts';

type Listener = () => void;
/** Called with the sentence the server gave for the session's end (401 `message`), or null. */
type EndedListener = (message: string | null) => void;
const activity: Listener[] = [];
const ended: EndedListener[] = [];
const wrote: Listener[] = [];
let lastActivity = Date.now();

/** Epoch milliseconds of the last answered request. */
export function lastActivityAt(): number {
  return lastActivity;
}

/** Calls `fn` after each answered request; returns the unsubscribe function. */
export function onActivity(fn: Listener): () => void {
  activity.push(fn);
  return () => void activity.splice(activity.indexOf(fn), 1);
}

/**
 * Calls `fn` when a request gets 401 (the session ended or was revoked), with the reason the
 * server gave (docs/security.md "Why a session ended") or null.
 */
export function onSessionEnded(fn: EndedListener): () => void {
  ended.push(fn);
  return () => void ended.splice(ended.indexOf(fn), 1);
}

/** Calls `fn` after each write (any method but GET and HEAD) the server accepted (status below 400). */
export function onWrite(fn: Listener): () => void {
  wrote.push(fn);
  return () => void wrote.splice(wrote.indexOf(fn), 1);
}

const NO_SESSION = /\/api\/(auth\/login|auth\/session$|auth\/me|auth\/password-reset|users\/invitations\/accept)/;

const trackedFetch: typeof fetch = async (input, init) => {
  const res = await fetch(input, { ...init, credentials: 'same-origin' });
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  noteAnswer(res);
  if (res.status !== 401) {
    lastActivity = Date.now();
    for (const fn of [...activity]) fn();
  } else if (!NO_SESSION.test(url)) {
    const body = (await res.clone().json().catch(() => null)) as { message?: unknown } | null;
    const message = typeof body?.message === 'string' ? body.message : null;
    for (const fn of [...ended]) fn(message);
  }
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  if (res.status < 400 && method !== 'GET' && method !== 'HEAD') for (const fn of [...wrote]) fn();
  return res;
};

/** The typed client bound to this origin and the session cookie. */
export const api = createCaretakerClient({ baseUrl: window.location.origin, fetch: trackedFetch, cookieSession: true });

/** A random key for the Idempotency-Key header of a create (a retried report is not doubled). */
export function idempotencyKey(): string {
  return crypto.randomUUID();
}
