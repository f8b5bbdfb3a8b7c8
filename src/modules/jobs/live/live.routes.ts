/** The live-updates route, `GET /api/events/stream` (docs/live-updates.md). */
import { Type } from 'typebox';
import type { AppDeps } from '../../../app-deps.ts';
import { fileResponse, responses } from '../../../http/envelope.ts';
import type { PresentedCredentials } from '../../../http/pipeline.ts';
import { requireAuth, type App } from '../../../http/route-types.ts';
import type { LiveHub } from './live-hub.ts';
import { openLiveStream } from './live.service.ts';

/** What the stream needs from the auth module, supplied by the composition root (src/main/app.ts). */
export interface LiveAuth {
  /** Name of the session cookie. */
  sessionCookie: string;
  /**
   * True while the presented session or token still stands for an active, unblocked account;
   * false when it is refused.
   * @throws when the check cannot be made (the database or Redis unreachable): the stream stays
   */
  stillSignedIn(presented: PresentedCredentials, userId: number): Promise<boolean>;
}

const StreamQuery = Type.Object(
  {
    last_event_id: Type.Optional(Type.String({ pattern: '^[0-9]{1,18}$', description: 'resume after this event id (the Last-Event-ID header wins when both are sent)' })),
  },
  { additionalProperties: false },
);

/** Registers GET /api/events/stream. */
export function liveRoutes(deps: AppDeps, hub: LiveHub, liveAuth: LiveAuth) {
  return async function plugin(app: App): Promise<void> {
    // Streams end before the server waits for open connections (else a shutdown would wait for them).
    app.addHook('preClose', async () => hub.close());

    /** GET /api/events/stream: Server-Sent Events of the caller's job events. */
    app.get('/api/events/stream', {
      // The stream is written on the hijacked socket, past onSend: it starts only once admitted.
      config: { permission: 'api.jobs.manage.manage', overlap: false },
      schema: {
        tags: ['events'],
        summary: 'Live updates (Server-Sent Events)',
        description:
          'text/event-stream of the events about the jobs the caller may see, as the reads decide (a tenant hears only its own jobs, a contractor the jobs assigned to it, staff their agency or branch; notes by their visibility; money, SLA and file events staff only). Each message: `id` (the outbox row id) and `data`, JSON {id, type, job_uuid, reference, status_id?, status?, fields?, at}; the client refetches what it shows. `{"type":"ready"}` once subscribed, `{"type":"resync"}` when a resume cannot be replayed (refetch everything), `{"type":"signed_out"}` before the stream ends for an ended session. Resume with the Last-Event-ID header (browsers send it on reconnect) or last_event_id. A comment heartbeat every CARETAKER_LIVE_HEARTBEAT_S seconds. 429 beyond CARETAKER_LIVE_MAX_PER_USER streams per account or CARETAKER_LIVE_MAX_CONNECTIONS per instance.',
        querystring: StreamQuery,
        response: responses(fileResponse(['text/event-stream'], 'Server-Sent Events'), [400, 401, 403, 429, 503]),
      },
      handler: async (request, reply) => {
        const auth = requireAuth(request);
        const header = request.headers['last-event-id'];
        const fromHeader = typeof header === 'string' && /^[0-9]{1,18}$/.test(header.trim()) ? header.trim() : undefined;
        const presented: PresentedCredentials = { authorization: request.headers.authorization, sessionCookie: request.cookies?.[liveAuth.sessionCookie] };
        await openLiveStream(deps, hub, auth, {
          lastEventId: fromHeader ?? request.query.last_event_id,
          stillSignedIn: () => liveAuth.stillSignedIn(presented, auth.userId),
          open: () => {
            void reply.hijack();
            const raw = reply.raw;
            raw.writeHead(200, {
              ...(reply.getHeaders() as Record<string, string>),
              'content-type': 'text/event-stream; charset=utf-8',
              'cache-control': 'no-store',
              connection: 'keep-alive',
              // Proxies (nginx) must pass each message on at once.
              'x-accel-buffering': 'no',
            });
            raw.socket?.setNoDelay(true);
            return {
              write: (text) => raw.write(text),
              buffered: () => raw.writableLength,
              end: () => raw.end(),
              onClose: (fn) => raw.once('close', fn),
            };
          },
        });
        return reply;
      },
    });
  };
}
