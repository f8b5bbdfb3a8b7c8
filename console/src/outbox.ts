/**
 * The outbox of the installable app (docs/console.md "On a phone: the installable app"): job
 * writes made without a connection (accept, decline, a status move, a note, a photo) are kept in
 * IndexedDB (the `idb` library) and sent in the order they were made when the connection is back
 * (the window's `online` event, the app's start, and every few seconds while some wait and the
 * browser says it is online).
 *
 * Each write gets its Idempotency-Key when the person acts (docs/api.md "Idempotency-Key"), kept
 * with it, and every attempt sends that key with a fresh CSRF token fetched just before (the typed
 * client of api.ts does that): an attempt whose answer was lost is answered again by the server as
 * a repeat, so each write is done exactly once however often it is sent. (Not Workbox background
 * sync: it replays the request as stored, with a single-use CSRF token that is spent or expired by
 * then, and the Background Sync API is missing from Safari and Firefox.)
 *
 * Outcomes of one attempt: accepted (below 400), the write leaves the outbox and is listed as sent;
 * refused (any other 4xx but 401, 408, 429 and a 409 "still in progress"), it leaves the outbox and
 * is listed as not sent with the API's message, never retried; no answer, 5xx, 408, 429 or a key
 * still in progress, the sending stops and is tried again later; 401 (the session ended) stops it
 * until the person signs in again. Writes belong to the person who made them and are sent only
 * while that person is signed in.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { api, idempotencyKey } from './api.ts';
import { describeProblem } from './logic/errors.ts';

/** The writes the outbox holds, with the API route each is sent to. */
export const OUTBOX_ROUTES = {
  accept: '/api/jobs/{uuid}/assignment/accept',
  decline: '/api/jobs/{uuid}/assignment/decline',
  transition: '/api/jobs/{uuid}/transitions',
  note: '/api/jobs/{uuid}/notes',
  photo: '/api/jobs/{uuid}/photos',
} as const;

export type OutboxKind = keyof typeof OUTBOX_ROUTES;

/** One write waiting in the outbox. */
export interface OutboxEntry {
  /** Order of the writes (IndexedDB's increasing key). */
  id?: number;
  /** uuid of the person who made it. */
  user: string;
  /** Its Idempotency-Key, made when the person acted. */
  key: string;
  /** ISO time it was made. */
  createdAt: string;
  kind: OutboxKind;
  jobUuid: string;
  /** The job's reference, for the lists ("JOB-00012"). */
  jobReference: string;
  /** What it does in the person's words ("Mark attended", "Note", "Photo"). */
  label: string;
  /** The JSON body (accept, decline, transition, note). */
  body?: Record<string, unknown>;
  /** The photo and its file name (photo). */
  file?: Blob;
  fileName?: string;
}

/** A write the outbox has finished with: sent, or refused with the API's message. */
export interface OutboxDone {
  label: string;
  jobReference: string;
  jobUuid: string;
  /** The refusal's message; absent when it was sent. */
  message?: string;
}

/** What the page shows: the person's waiting writes, whether sending runs, and what was finished. */
export interface OutboxState {
  waiting: OutboxEntry[];
  sending: boolean;
  sent: OutboxDone[];
  rejected: OutboxDone[];
}

interface OutboxDb extends DBSchema {
  writes: { key: number; value: OutboxEntry };
}

/** Milliseconds between tries while writes wait and the browser says it is online. */
const RETRY_MS = 3000;

let dbPromise: Promise<IDBPDatabase<OutboxDb>> | null = null;
function db(): Promise<IDBPDatabase<OutboxDb>> {
  dbPromise ??= openDB<OutboxDb>('caretaker-outbox', 1, {
    upgrade(d) {
      d.createObjectStore('writes', { keyPath: 'id', autoIncrement: true });
    },
  });
  return dbPromise;
}

let user: string | null = null;
let state: OutboxState = { waiting: [], sending: false, sent: [], rejected: [] };
const listeners = new Set<() => void>();
let flushing: Promise<void> | null = null;
let retryTimer: ReturnType<typeof setTimeout> | null = null;

function publish(patch: Partial<OutboxState>): void {
  state = { ...state, ...patch };
  for (const fn of [...listeners]) fn();
}

async function reload(): Promise<void> {
  const all = user ? await (await db()).getAll('writes') : [];
  publish({ waiting: all.filter((e) => e.user === user) });
}

/** The current state (for useSyncExternalStore). */
export function outboxState(): OutboxState {
  return state;
}

/** Calls `fn` whenever the state changes; returns the unsubscribe function. */
export function subscribeOutbox(fn: () => void): () => void {
  listeners.add(fn);
  return () => void listeners.delete(fn);
}

/**
 * Tells the outbox who is signed in (the uuid of GET /api/auth/me, or null): their waiting writes
 * are shown and, when online, sent. Called by the session whenever the person changes.
 */
export async function setOutboxUser(uuid: string | null): Promise<void> {
  if (uuid !== user) publish({ sent: [], rejected: [] });
  user = uuid;
  await reload();
  if (user && navigator.onLine) void flushOutbox();
}

/**
 * Deletes the signed-in person's waiting writes, unsent (docs/console.md "On a phone: the
 * installable app": signing out with writes still waiting asks first, then deletes them). A run
 * sending them stops before its next write. Other people's writes stay.
 * @returns how many were deleted
 */
export async function discardOutbox(): Promise<number> {
  if (!user) return 0;
  const d = await db();
  const mine = (await d.getAll('writes')).filter((e) => e.user === user);
  for (const e of mine) await d.delete('writes', e.id!);
  await reload();
  return mine.length;
}

/** Forgets the lists of sent and refused writes (the banner's "Dismiss"). */
export function dismissOutboxResults(): void {
  publish({ sent: [], rejected: [] });
}

/** Sends one write with its own Idempotency-Key; throws the client's error as it is. */
async function send(e: OutboxEntry): Promise<void> {
  const params = { path: { uuid: e.jobUuid } };
  const headers = { 'Idempotency-Key': e.key };
  if (e.kind === 'photo') {
    const file = new File([e.file!], e.fileName ?? 'photo.jpg', { type: e.file!.type });
    await api.POST(OUTBOX_ROUTES.photo, { params, headers, body: { file } });
    return;
  }
  await api.POST(OUTBOX_ROUTES[e.kind], { params, headers, body: e.body ?? {} });
}

/** True when the write may be sent again later (no answer, 5xx, 408, 429, key in progress, session ended). */
function worthRetrying(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status !== 'number') return true;
  // 409 "A request with this Idempotency-Key is still in progress" (docs/api.md); any other 409 is a refusal.
  if (status === 409) return /Idempotency-Key is still in progress/i.test((error as Error).message);
  return status === 401 || status === 408 || status === 429 || status >= 500;
}

function scheduleRetry(): void {
  if (retryTimer) return;
  retryTimer = setTimeout(() => {
    retryTimer = null;
    if (navigator.onLine) void flushOutbox();
  }, RETRY_MS);
}

/**
 * Sends the signed-in person's waiting writes, oldest first, one at a time (see the module
 * comment for the outcomes). One run at a time: a second call while one runs returns that run.
 */
export function flushOutbox(): Promise<void> {
  flushing ??= (async () => {
    publish({ sending: true });
    try {
      for (;;) {
        if (!user) return;
        const next = (await (await db()).getAll('writes')).find((e) => e.user === user);
        if (!next) return;
        try {
          await send(next);
          await (await db()).delete('writes', next.id!);
          publish({ sent: [...state.sent, { label: next.label, jobReference: next.jobReference, jobUuid: next.jobUuid }] });
        } catch (error) {
          if (worthRetrying(error)) {
            if ((error as { status?: unknown }).status !== 401) scheduleRetry();
            return;
          }
          await (await db()).delete('writes', next.id!);
          const message = describeProblem(error).message;
          publish({ rejected: [...state.rejected, { label: next.label, jobReference: next.jobReference, jobUuid: next.jobUuid, message }] });
        } finally {
          await reload();
        }
      }
    } finally {
      flushing = null;
      publish({ sending: false });
    }
  })();
  return flushing;
}

/** A write as the page makes it: the outbox adds who, when and its Idempotency-Key. */
export type NewWrite = Omit<OutboxEntry, 'id' | 'user' | 'key' | 'createdAt'>;

/**
 * Sends a job write now, or keeps it in the outbox: when the browser is offline, when earlier
 * writes still wait (the order is kept), or when this attempt got no answer at all (kept with the
 * same Idempotency-Key, so a write the server did receive is not done twice). A refusal (4xx, 5xx)
 * of an attempt made now is thrown as the client's error, for the page to show next to the action.
 * @returns 'sent' or 'queued'
 */
export async function sendOrQueue(write: NewWrite): Promise<'sent' | 'queued'> {
  if (!user) throw new Error('Not signed in');
  const entry: OutboxEntry = { ...write, user, key: idempotencyKey(), createdAt: new Date().toISOString() };
  if (navigator.onLine && state.waiting.length === 0) {
    try {
      await send(entry);
      return 'sent';
    } catch (error) {
      if (typeof (error as { status?: unknown } | null)?.status === 'number') throw error;
    }
  }
  await (await db()).add('writes', entry);
  await reload();
  if (navigator.onLine) scheduleRetry();
  return 'queued';
}

if (typeof window !== 'undefined') {
  window.addEventListener('online', () => void flushOutbox());
}
