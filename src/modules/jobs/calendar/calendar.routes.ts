/**
 * The calendar (docs/calendar.md): GET /api/calendar (JSON), GET /api/calendar/feed.ics (iCalendar,
 * authenticated by the feed key in the URL) and the caller's feed key: POST (create or
 * regenerate), GET (exists?), DELETE (revoke) /api/calendar/feed-key.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { CsrfOnlyBody } from '../../../http/optional-body.ts';
import { DataEnvelope, ListEnvelope, MessageEnvelope, done, fileResponse, list, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { createFeedKey, feedKeyStatus, renderFeed, revokeFeedKey } from './calendar-feed.service.ts';
import { CalendarEntry, CalendarQuery, FeedKeyCreated, FeedKeyStatus, FeedQuery } from './calendar.schemas.ts';
import { listCalendar } from './calendar.service.ts';

const PERMISSION = 'api.calendar.view';

/** Registers the calendar routes. */
export function calendarRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/calendar: the caller's scheduled jobs in a range of dates. */
    app.get('/api/calendar', {
      config: { permission: PERMISSION },
      schema: {
        tags: ['calendar'],
        summary: 'Scheduled jobs by date range',
        description:
          'Jobs the caller may see whose scheduled_for falls on from_date..to_date (inclusive, Europe/London dates; ' +
          'default today and 30 days on; at most 366 days, else 400), cancelled jobs left out, earliest first, with ' +
          'their time slot and event start/end.',
        querystring: CalendarQuery,
        response: responses(ListEnvelope(CalendarEntry), [400, 401, 403, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await listCalendar(deps, requireAuth(request), request.query);
        return list(rows, total, 'Calendar retrieved');
      },
    });

    /** GET /api/calendar/feed.ics?key=: the iCalendar feed of the key's owner (the key masked in the log: src/http/log-masking.ts). */
    app.get('/api/calendar/feed.ics', {
      config: { permission: 'public' },
      schema: {
        tags: ['calendar'],
        summary: 'iCalendar feed of scheduled jobs',
        description:
          'For calendar apps, which cannot send a bearer token: authenticated by the feed key alone. Events of the ' +
          "key owner's visible jobs from 30 days back to 180 days ahead (UID = job uuid). Unknown or revoked key: 404.",
        querystring: FeedQuery,
        response: responses(fileResponse(['text/calendar'], 'iCalendar (RFC 5545)'), [400, 404, 429]),
      },
      handler: async (request, reply) => {
        const body = await renderFeed(deps, request.query.key);
        void reply
          .type('text/calendar; charset=utf-8')
          .header('content-disposition', 'inline; filename="caretaker.ics"')
          .header('cache-control', 'no-store');
        return reply.send(body);
      },
    });

    /** POST /api/calendar/feed-key: creates or regenerates the caller's feed key. */
    app.post('/api/calendar/feed-key', {
      config: { permission: PERMISSION },
      schema: {
        tags: ['calendar'],
        summary: 'Create or regenerate the calendar feed key',
        description: 'Returns the key once (only its SHA-256 is stored). Regenerating invalidates the old key. Needs a CSRF token.',
        body: CsrfOnlyBody,
        response: responses(DataEnvelope(FeedKeyCreated), [400, 401, 403, 429]),
      },
      handler: async (request) => {
        const created = await createFeedKey(deps, requireAuth(request), actorOf(request));
        return ok(created, created.regenerated ? 'Feed key regenerated' : 'Feed key created');
      },
    });

    /** GET /api/calendar/feed-key: whether the caller has a key. */
    app.get('/api/calendar/feed-key', {
      config: { permission: PERMISSION },
      schema: {
        tags: ['calendar'],
        summary: 'Whether a calendar feed key exists',
        description: 'Never returns the key itself.',
        response: responses(DataEnvelope(FeedKeyStatus), [401, 403, 429]),
      },
      handler: async (request) => ok(await feedKeyStatus(deps, requireAuth(request)), 'Feed key status retrieved'),
    });

    /** DELETE /api/calendar/feed-key: revokes the caller's key. */
    app.delete('/api/calendar/feed-key', {
      config: { permission: PERMISSION },
      schema: {
        tags: ['calendar'],
        summary: 'Revoke the calendar feed key',
        description: 'The feed URL stops working at once. 404 when there is no key. Needs a CSRF token.',
        body: CsrfOnlyBody,
        response: responses(MessageEnvelope, [400, 401, 403, 404, 429]),
      },
      handler: async (request) => {
        await revokeFeedKey(deps, requireAuth(request), actorOf(request));
        return done('Feed key revoked');
      },
    });
  };
}
