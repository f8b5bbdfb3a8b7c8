/**
 * Job time ranges (spec 4.13, 2.5): GET /api/jobs/time-ranges?action=list for everyone with the
 * read key; create, rename and retire for administrators (api.jobs.time-ranges.admin).
 */
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, MessageEnvelope, done, list, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { CreateTimeRangeBody, ListTimeRangesQuery, TimeRange, TimeRangeParams, UpdateTimeRangeBody } from './time-ranges.schemas.ts';
import { createTimeRange, listTimeRanges, retireTimeRange, updateTimeRange } from './time-ranges.service.ts';

const PATH = '/api/jobs/time-ranges';
const ADMIN = 'api.jobs.time-ranges.admin';
const OWNERSHIP =
  'Global slots (agency_uuid null) are changed by SysOps only (403 for anyone else); an agency administrator ' +
  "changes the agency's own slots; another agency's slot is 404.";

/** Registers the time-range routes. */
export function timeRangesRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET ?action=list: the live slots the caller sees (spec 4.13). */
    app.get(PATH, {
      config: { permission: 'api.jobs.time-ranges.manage' },
      schema: {
        tags: ['jobs'],
        summary: 'List the job time-range slots',
        description:
          'action=list is required (missing or another value: 400). Returns the global slots and those of the ' +
          "caller's agency (SysOps: every slot), without retired ones, ordered by sort_order.",
        querystring: ListTimeRangesQuery,
        response: responses(ListEnvelope(TimeRange), [400, 401, 403, 429]),
      },
      handler: async (request) => {
        const rows = await listTimeRanges(deps, requireAuth(request));
        return list(rows, rows.length, 'Time ranges retrieved');
      },
    });

    /** POST: adds a slot (global for SysOps, the agency's for an administrator). */
    app.post(PATH, {
      config: { permission: ADMIN },
      schema: {
        tags: ['jobs'],
        summary: 'Add a job time-range slot',
        description:
          'range_label required; starts_at and ends_at (HH:MM, start before end) and sort_order optional. SysOps add ' +
          "global slots, agency administrators their agency's. A label already visible to the agency: 409. Needs a CSRF token.",
        body: CreateTimeRangeBody,
        response: responses(DataEnvelope(TimeRange), [400, 401, 403, 409, 429], 201),
      },
      handler: async (request, reply) => {
        const range = await createTimeRange(deps, requireAuth(request), actorOf(request), request.body);
        void reply.status(201);
        return ok(range, 'Time range created');
      },
    });

    /** PUT /{id}: renames a slot or changes its times or order. */
    app.put(`${PATH}/:id`, {
      config: { permission: ADMIN },
      schema: {
        tags: ['jobs'],
        summary: 'Rename or change a job time-range slot',
        description: `At least one of range_label, starts_at, ends_at, sort_order. ${OWNERSHIP} Needs a CSRF token.`,
        params: TimeRangeParams,
        body: UpdateTimeRangeBody,
        response: responses(DataEnvelope(TimeRange), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => {
        const range = await updateTimeRange(deps, requireAuth(request), actorOf(request), request.params.id, request.body);
        return ok(range, 'Time range updated');
      },
    });

    /** DELETE /{id}: retires a slot. */
    app.delete(`${PATH}/:id`, {
      config: { permission: ADMIN },
      schema: {
        tags: ['jobs'],
        summary: 'Retire a job time-range slot',
        description: `Sets retired_at: the slot leaves the list; jobs that use it keep it. ${OWNERSHIP} Needs a CSRF token.`,
        params: TimeRangeParams,
        response: responses(MessageEnvelope, [400, 401, 403, 404, 429]),
      },
      handler: async (request) => {
        await retireTimeRange(deps, requireAuth(request), actorOf(request), request.params.id);
        return done('Time range retired');
      },
    });
  };
}
