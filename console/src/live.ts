/**
 * Live updates in the console (docs/live-updates.md): one EventSource on GET /api/events/stream
 * per tab, shared by every component that subscribes, open while at least one does. A page
 * subscribes to one job's events (`subscribe(jobUuid, handler)`) or to all it may see ('*'), and
 * refetches what it shows when one arrives: the events are small (type, job, status, changed
 * fields). The browser reconnects by itself and resumes with Last-Event-ID; a `resync` (the gap
 * was too long to replay) reaches every handler, which refetch everything.
 */
import { useEffect, useRef } from 'react';

/** One event of the stream (its `data`). */
export interface LiveEvent {
  /** The event id (resume point). */
  id?: string;
  /** `job.status_changed`, `job.note_added`, ...; `resync` when everything should be refetched. */
  type: string;
  job_uuid?: string;
  reference?: string;
  status_id?: number;
  status?: string;
  fields?: string[];
  at?: string;
}

type Handler = (event: LiveEvent) => void;

const handlers = new Map<string, Set<Handler>>();
let source: EventSource | null = null;
let lastId: string | null = null;
let retry: number | undefined;

/** Seconds before the console opens the stream again after the server refused it (signed out, limits). */
const REOPEN_AFTER_S = 15;

function dispatch(event: LiveEvent): void {
  const targets = event.type === 'resync' ? [...handlers.values()] : [handlers.get('*'), event.job_uuid ? handlers.get(event.job_uuid) : undefined];
  for (const set of targets) for (const fn of set ?? []) fn(event);
}

function open(): void {
  if (source || handlers.size === 0 || typeof EventSource === 'undefined') return;
  const es = new EventSource(lastId ? `/api/events/stream?last_event_id=${encodeURIComponent(lastId)}` : '/api/events/stream');
  source = es;
  es.onmessage = (m: MessageEvent<string>) => {
    if (m.lastEventId) lastId = m.lastEventId;
    let event: LiveEvent;
    try {
      event = JSON.parse(m.data) as LiveEvent;
    } catch {
      return;
    }
    if (event.type === 'signed_out') close();
    else if (event.type !== 'ready') dispatch(event);
  };
  es.onerror = () => {
    // CONNECTING: the browser retries by itself. CLOSED: refused (401, 429); try again later.
    if (es.readyState !== EventSource.CLOSED) return;
    if (source === es) source = null;
    clearTimeout(retry);
    retry = window.setTimeout(open, REOPEN_AFTER_S * 1000);
  };
}

function close(): void {
  clearTimeout(retry);
  source?.close();
  source = null;
}

/**
 * Calls `handler` for each live event about the job `jobUuid` ('*': every job the caller may see),
 * and for `resync`.
 * @returns the function that stops it (the stream closes with the last subscriber)
 */
export function subscribe(jobUuid: string, handler: Handler): () => void {
  const set = handlers.get(jobUuid) ?? new Set<Handler>();
  handlers.set(jobUuid, set);
  set.add(handler);
  open();
  return () => {
    set.delete(handler);
    if (set.size === 0) handlers.delete(jobUuid);
    if (handlers.size === 0) close();
  };
}

/**
 * React hook: calls `onEvent` for the live events of one job ('*': all; null: none): at once for
 * the first of a burst, then at most once per `quietMs` for the rest (a burst causes two refetches
 * at most, the first without delay).
 */
export function useLiveEvents(jobUuid: string | null, onEvent: (event: LiveEvent) => void, quietMs = 250): void {
  const latest = useRef(onEvent);
  latest.current = onEvent;
  useEffect(() => {
    if (jobUuid === null) return;
    let timer: number | undefined;
    let waiting: LiveEvent | null = null;
    const quiet = () => {
      timer = window.setTimeout(() => {
        timer = undefined;
        if (!waiting) return;
        const event = waiting;
        waiting = null;
        latest.current(event);
        quiet();
      }, quietMs);
    };
    const stop = subscribe(jobUuid, (event) => {
      if (timer !== undefined) {
        waiting = event;
        return;
      }
      latest.current(event);
      quiet();
    });
    return () => {
      clearTimeout(timer);
      stop();
    };
  }, [jobUuid, quietMs]);
}
