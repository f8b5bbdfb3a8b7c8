/// <reference lib="webworker" />
/**
 * The console's service worker (docs/console.md "On a phone: the installable app"), built by
 * vite-plugin-pwa (strategy injectManifest) into `/sw.js` with Workbox:
 *
 * - Precache: the app shell (the hashed files of the build, index.html, the icons; the list is
 *   injected at build time as `self.__WB_MANIFEST`). Every navigation outside /api and /docs is
 *   answered with the precached index.html, so the app opens without a network. No /api answer is
 *   ever precached.
 * - Runtime cache `caretaker-api` (API_CACHE), NetworkFirst with a 3-second network timeout, for
 *   the signed-in person's reads the offline app needs: GET /api/auth/me and
 *   /api/users/permissions (the app knows who is signed in), and GET /api/jobs and everything
 *   under /api/jobs/ (the job list, each job, its history, notes, visit, photo and document
 *   lists, and the photo and document downloads). Only 200 answers are kept (at most 400, for 7
 *   days). A cached answer given instead of the network's carries `X-Caretaker-Saved-At` (the
 *   HTTP date it was fetched), which the page shows in its offline banner. The page deletes this
 *   cache whenever the person changes (sign-in, sign-out, session ended; src/pwa.ts).
 * - Push: a Web Push message `{"title","body","data":{"job_uuid","kind"}}` (docs/push.md) is shown
 *   as a notification; a click opens the job (or the job list) in the app.
 * - Updates: a new worker takes over at once (skipWaiting, clients.claim); index.html and sw.js
 *   are served `no-cache`, so a release is picked up on the next load.
 */
import { clientsClaim, type WorkboxPlugin } from 'workbox-core';
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NetworkFirst } from 'workbox-strategies';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<string | { url: string; revision: string | null }> };

/** The runtime cache of the signed-in person's API reads (src/pwa.ts deletes it on sign-in and sign-out). */
const API_CACHE = 'caretaker-api';

/** The GET paths kept for reading offline. */
const OFFLINE_READS = /^\/api\/(auth\/me|users\/permissions|jobs(\/.*)?)$/;

void self.skipWaiting();
clientsClaim();
cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/api(\/|$)/, /^\/docs(\/|$)/] }));

/** Marks an answer taken from the cache with the time it was fetched (its Date header). */
const markSaved: WorkboxPlugin = {
  cachedResponseWillBeUsed: async ({ cachedResponse }) => {
    if (!cachedResponse) return cachedResponse ?? null;
    const headers = new Headers(cachedResponse.headers);
    headers.set('X-Caretaker-Saved-At', cachedResponse.headers.get('date') ?? '');
    return new Response(await cachedResponse.blob(), { status: cachedResponse.status, statusText: cachedResponse.statusText, headers });
  },
};

registerRoute(
  ({ url, request }) => url.origin === self.location.origin && request.method === 'GET' && OFFLINE_READS.test(url.pathname),
  new NetworkFirst({
    cacheName: API_CACHE,
    networkTimeoutSeconds: 3,
    plugins: [new CacheableResponsePlugin({ statuses: [200] }), new ExpirationPlugin({ maxEntries: 400, maxAgeSeconds: 7 * 24 * 3600 }), markSaved],
  }),
);

/** The payload of a Web Push message (docs/push.md "What each provider receives"). */
interface PushPayload {
  title?: string;
  body?: string;
  data?: Record<string, string | null | undefined>;
}

self.addEventListener('push', (event) => {
  let payload: PushPayload = {};
  try {
    payload = (event.data?.json() ?? {}) as PushPayload;
  } catch {
    payload = { body: event.data?.text() ?? '' };
  }
  const jobUuid = payload.data?.job_uuid;
  const url = jobUuid ? `/jobs/${encodeURIComponent(jobUuid)}` : '/jobs';
  event.waitUntil(
    self.registration.showNotification(payload.title || 'Caretaker', {
      body: payload.body ?? '',
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      tag: jobUuid ?? undefined,
      data: { url },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL((event.notification.data as { url?: string } | null)?.url ?? '/jobs', self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
      if (open) {
        await open.focus();
        await open.navigate(url);
        return;
      }
      await self.clients.openWindow(url);
    })(),
  );
});
