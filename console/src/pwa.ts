/// <reference types="vite/client" />
/**
 * The page's side of the installable app (docs/console.md "On a phone: the installable app"):
 * registering the service worker (src/sw.ts, production builds only), deleting the signed-in person's offline copies when the person changes,
 * saving today's jobs for reading offline, and Web Push ("Notify me on this phone", docs/push.md).
 */
import type { QueryClient } from '@tanstack/query-core';
import { api } from './api.ts';

/** The service worker's runtime cache of API reads (API_CACHE of src/sw.ts). */
export const API_CACHE = 'caretaker-api';

/** The longest wait (ms) after the page's load for its first reads to finish before the worker is registered anyway. */
const REGISTER_WAIT_MS = 10_000;

/** Resolves once `client` has no read in flight (at once when it has none), or after `maxMs`. */
function whenReadsSettled(client: QueryClient, maxMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, maxMs);
    const unsubscribe = client.getQueryCache().subscribe(() => {
      if (client.isFetching() === 0) done();
    });
    function done() {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    }
    if (client.isFetching() === 0) done();
  });
}

/**
 * Registers /sw.js (scope /) in a production build of a browser that has service workers (the dev
 * server never does), once the first view is on screen: after the page's load, when its first
 * reads have answered (or 10 s at most), when the browser is next idle. Installing the worker
 * downloads the whole app shell for its precache; started at load it competed with the first
 * view's own reads and rendering.
 * @param client the console's query client (query.ts), whose reads in flight are waited for
 */
export function registerServiceWorker(client: QueryClient): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((e: unknown) => console.warn('Service worker not registered', e));
  };
  window.addEventListener('load', () => {
    void whenReadsSettled(client, REGISTER_WAIT_MS).then(() => {
      if ('requestIdleCallback' in window) requestIdleCallback(register, { timeout: 2_000 });
      else setTimeout(register, 500);
    });
  });
}

/** Deletes the offline copies of the API reads (on sign-in, sign-out and a session ended: one person never reads another's). */
export async function clearOfflineReads(): Promise<void> {
  if (typeof caches === 'undefined') return;
  await caches.delete(API_CACHE).catch(() => false);
}

/** The day of an instant in London, YYYY-MM-DD. */
function londonDay(d: Date): string {
  return d.toLocaleDateString('en-CA', { timeZone: 'Europe/London' });
}

/** How many jobs and photos per job are saved ahead for reading offline. */
const SAVE_JOBS = 20;
const SAVE_PHOTOS = 12;

/**
 * Reads today's jobs of the list (those with the visit today in London) and what their pages show
 * (the job, its history, notes, photos and documents and the photo files, and the statuses), so
 * the service worker keeps them for reading offline. Only with a service worker in control and
 * online; quietly does nothing otherwise. Failures are ignored (it is a head start, not a promise).
 * @param jobs rows of GET /api/jobs/manage: uuid and scheduled_for (ISO, null when not booked)
 */
export async function saveTodaysJobs(jobs: Array<{ uuid: string; scheduled_for?: string | null }>): Promise<void> {
  if (!navigator.serviceWorker?.controller || !navigator.onLine) return;
  const today = londonDay(new Date());
  const todays = jobs.filter((j) => j.scheduled_for && String(j.scheduled_for).slice(0, 10) === today).slice(0, SAVE_JOBS);
  if (todays.length === 0) return;
  const get = (url: string) => fetch(url, { credentials: 'same-origin' }).catch(() => null);
  await get('/api/jobs/statuses');
  for (const job of todays) {
    const base = `/api/jobs/${encodeURIComponent(job.uuid)}`;
    const [, , , photos] = await Promise.all([get(base), get(`${base}/history`), get(`${base}/notes`), get(`${base}/photos`), get(`${base}/documents`), get(`${base}/visit`)]);
    if (photos?.ok) {
      const body = (await photos.json().catch(() => null)) as { data?: Array<{ download_url: string }> } | null;
      await Promise.all((body?.data ?? []).slice(0, SAVE_PHOTOS).map((p) => get(p.download_url)));
    }
  }
}

/** The VAPID public key as PushManager.subscribe takes it (bytes of the base64url text). */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const raw = atob(base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4));
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

/** True when this browser can receive Web Push (a service worker, PushManager and notifications). */
export function pushSupported(): boolean {
  return import.meta.env.PROD && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/** The server's Web Push public key (GET /api/system/device-tokens/web-push-key), or null when push is not configured. */
export async function webPushKey(): Promise<string | null> {
  const { data } = await api.GET('/api/system/device-tokens/web-push-key');
  return data?.data.public_key ?? null;
}

/** This browser's current push subscription, if any. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.ready;
  return registration.pushManager.getSubscription();
}

/**
 * "Notify me on this phone": asks for permission to show notifications, subscribes with the
 * server's key and registers the subscription as the person's `web` device token
 * (POST /api/system/device-tokens, docs/push.md "Web Push subscriptions as device tokens").
 * @throws Error with a sentence for the person when permission is refused; the client's error when the API refuses
 */
export async function enablePush(publicKey: string): Promise<void> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new Error('Notifications are blocked for this site: allow them in the browser’s settings, then try again.');
  const registration = await navigator.serviceWorker.ready;
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
  await api.POST('/api/system/device-tokens', { body: { platform: 'web', device_token: JSON.stringify(subscription) } });
}

/**
 * On sign-out: removes this browser's subscription from the person's device tokens and
 * unsubscribes, so the next person on the phone gets none of their notifications. Best effort:
 * failures are ignored (a token the push service reports gone is deleted anyway, docs/push.md).
 */
export async function disablePushOnSignOut(): Promise<void> {
  if (!pushSupported() || !navigator.serviceWorker.controller) return;
  try {
    const subscription = await currentSubscription();
    if (!subscription) return;
    await api.DELETE('/api/system/device-tokens', { body: { device_token: JSON.stringify(subscription) } }).catch(() => undefined);
    await subscription.unsubscribe();
  } catch {
    // Nothing to undo.
  }
}
