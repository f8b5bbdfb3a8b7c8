/**
 * One live stream, `GET /api/events/stream` (docs/live-updates.md): Server-Sent Events of the job
 * events the caller may hear, resumable with Last-Event-ID, with heartbeats that also check the
 * session again, limited per account and per instance, ended cleanly when the app closes.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { AuthContext } from '../../../core/auth-context.ts';
import { AppError } from '../../../core/errors.ts';
import { outboxRowsAfter } from '../../../events/index.ts';
import { jobScope } from '../jobs/index.ts';
import { authorise, type LiveHub, type LiveSubscriber } from './live-hub.ts';
import { liveCandidate, type LiveCandidate, type LiveEvent } from './live-events.ts';

/** Where a stream writes: the raw HTTP response once the route has taken it over. */
export interface LiveSink {
  /** Writes text; false when the socket's buffer is full. */
  write(text: string): boolean;
  /** Bytes waiting in the socket's buffer. */
  buffered(): number;
  /** Ends the response. */
  end(): void;
  /** Calls `fn` once when the client goes away or the response ends. */
  onClose(fn: () => void): void;
}

/** Beyond this many bytes waiting for a slow client, its stream is ended (it reconnects and resumes). */
const MAX_BUFFERED_BYTES = 1 << 20;

/** Ids remembered per stream to send each event once (replay and live may overlap). */
const SENT_IDS_KEPT = 2_000;

/** How long a browser waits before reconnecting, in milliseconds (the SSE `retry` field). */
export const RETRY_MS = 2_000;

/**
 * The SSE text of each event the hub delivers, made once: the hub hands the same event objects to
 * every stream of a recipient group, so 10,000 streams share one JSON.stringify (bench/README.md
 * "Live updates at 10,000 streams").
 */
const messages = new WeakMap<LiveEvent, string>();

/** One SSE message: the event's id, and its JSON as data. */
export function sseMessage(event: LiveEvent | { type: string }): string {
  if (!('id' in event)) return `data: ${JSON.stringify(event)}\n\n`;
  let text = messages.get(event);
  if (text === undefined) {
    text = `id: ${event.id}\ndata: ${JSON.stringify(event)}\n\n`;
    messages.set(event, text);
  }
  return text;
}

/** What a stream needs besides the caller. */
export interface StreamInput {
  /** The last event id the client received (Last-Event-ID header or `last_event_id`), digits only. */
  lastEventId: string | undefined;
  /** True while the session or token that opened the stream is still valid (checked at each heartbeat). */
  stillSignedIn: () => Promise<boolean>;
  /** Takes over the HTTP response and writes the stream's headers. */
  open: () => LiveSink;
}

/**
 * Opens a live stream for the caller: checks the limits, subscribes, replays what the client
 * missed after `lastEventId` (within CARETAKER_LIVE_REPLAY_S and CARETAKER_LIVE_REPLAY_MAX, else
 * a `resync` message tells it to refetch), sends `ready`, then the live events as they commit.
 * Resolves once the stream is open; the stream lives on until the client leaves, the session
 * ends or the app closes.
 * @throws 429 when the account or the instance has too many open streams; 503 when the
 *   database's notifications cannot be listened to
 */
export async function openLiveStream(deps: AppDeps, hub: LiveHub, auth: AuthContext, input: StreamInput): Promise<void> {
  const limits = deps.config.live;
  if (hub.size >= limits.maxConnections || hub.countOf(auth.userId) >= limits.maxPerUser) {
    const err = new AppError('rate_limited', undefined, {
      message: 'Too many open live streams. Close one or try again in 30 seconds.',
      limit: hub.size >= limits.maxConnections ? limits.maxConnections : limits.maxPerUser,
      retry_after: 30,
    });
    err.headers = { 'retry-after': '30' };
    throw err;
  }
  const scope = jobScope(auth);
  let sink: LiveSink | null = null;
  let buffer: LiveEvent[] | null = [];
  const sent = new Set<string>();
  let heartbeat: NodeJS.Timeout | undefined = undefined;
  let ended = false;

  const send = (events: LiveEvent[]): void => {
    if (!sink || ended) return;
    let text = '';
    for (const e of events) {
      if (sent.has(e.id)) continue;
      sent.add(e.id);
      text += sseMessage(e);
    }
    // The oldest ids go first (a Set iterates in insertion order), without copying the set.
    for (const id of sent) {
      if (sent.size <= SENT_IDS_KEPT) break;
      sent.delete(id);
    }
    if (text) sink.write(text);
    if (sink.buffered() > MAX_BUFFERED_BYTES) end();
  };
  const end = (): void => {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    hub.detach(subscriber);
    sink?.end();
  };
  // Session checks run one at a time; a change heard while one runs is checked again after it.
  // While a check runs, live events wait in `holding`: sent if the session stands, dropped if not.
  let checking: Promise<void> | null = null;
  let checkAgain = false;
  let holding: LiveEvent[] | null = null;
  /** Lets held events go: into the opening buffer while the stream is not yet open, else out. */
  const release = (): void => {
    const waiting = holding ?? [];
    holding = null;
    if (buffer) buffer.push(...waiting);
    else send(waiting);
  };
  let signedOut = false;
  const recheck = (): void => {
    if (ended) return;
    if (checking) {
      checkAgain = true;
      return;
    }
    holding ??= [];
    checking = input.stillSignedIn().then(
      (ok) => {
        if (ended) return;
        if (ok) {
          if (!checkAgain) release();
          return;
        }
        // Events held meanwhile are dropped: nothing more is sent.
        holding = null;
        signedOut = true;
        ended = true;
        clearInterval(heartbeat);
        hub.detach(subscriber);
        if (sink) {
          sink.write(sseMessage({ type: 'signed_out' }));
          sink.end();
        }
      },
      () => {
        // The check itself failed (database unreachable): keep the stream, the next heartbeat checks again.
        if (!checkAgain && !ended) release();
      },
    ).finally(() => {
      checking = null;
      if (checkAgain) {
        checkAgain = false;
        recheck();
      }
    });
  };
  const subscriber: LiveSubscriber = {
    userId: auth.userId,
    scope,
    agencyId: auth.agencyId,
    deliver: (events) => {
      if (buffer) buffer.push(...events);
      else if (holding) holding.push(...events);
      else send(events);
    },
    end,
    recheck,
  };

  try {
    await hub.attach(subscriber);
  } catch {
    throw new AppError('unavailable', 'Live updates are unavailable right now. Please try again.');
  }
  let replay: LiveEvent[] | 'resync' = [];
  try {
    if (input.lastEventId !== undefined) replay = await missedEvents(deps, input.lastEventId, scope, auth.agencyId);
    sink = input.open();
  } catch (err) {
    hub.detach(subscriber);
    throw err;
  }
  if (signedOut) {
    // The session ended while the stream was being opened.
    sink.write(sseMessage({ type: 'signed_out' }));
    sink.end();
    return;
  }
  sink.onClose(end);
  sink.write(`retry: ${RETRY_MS}\n\n`);
  if (replay === 'resync') sink.write(sseMessage({ type: 'resync' }));
  else send(replay);
  sink.write(sseMessage({ type: 'ready' }));
  const held = buffer;
  buffer = null;
  // (`holding` is set by a check started meanwhile, in a callback TypeScript does not follow.)
  const checkHolds = holding as LiveEvent[] | null;
  if (checkHolds) checkHolds.unshift(...held);
  else send(held);
  // A change that ended the session between the request's authentication and the subscription
  // was not heard by this stream: check once now.
  recheck();
  heartbeat = setInterval(() => {
    if (ended || !sink) return;
    sink.write(': heartbeat\n\n');
    recheck();
  }, limits.heartbeatS * 1000);
  heartbeat.unref();
}

/**
 * The events after `lastEventId` the caller may hear, from the outbox, or 'resync' when they
 * cannot all be given: more than CARETAKER_LIVE_REPLAY_MAX, or the oldest older than
 * CARETAKER_LIVE_REPLAY_S.
 */
async function missedEvents(deps: AppDeps, lastEventId: string, scope: ReturnType<typeof jobScope>, agencyId: number | null): Promise<LiveEvent[] | 'resync'> {
  const { replayMax, replayS } = deps.config.live;
  const rows = await outboxRowsAfter(deps.db, lastEventId, replayMax + 1);
  if (rows.length > replayMax) return 'resync';
  const oldest = rows[0];
  if (oldest && new Date(oldest.occurred_at).getTime() < deps.clock.now().getTime() - replayS * 1000) return 'resync';
  const candidates = rows.map(liveCandidate).filter((c): c is LiveCandidate => c !== null);
  return authorise(deps, candidates, scope, agencyId);
}
