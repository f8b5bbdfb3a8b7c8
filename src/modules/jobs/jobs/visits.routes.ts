/**
 * Visit booking routes (docs/tenant-reporting.md "Booking the visit"): the job's visit plan, the
 * tenant's windows, the tenant's pick of a free slot and the missed visit. The contractor books
 * through POST /api/jobs/{uuid}/assignment/booking (job-lifecycle.routes.ts).
 */
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { Job, JobParams } from './jobs.schemas.ts';
import { chooseSlot, recordMissedVisit, setWindows, visitPlan } from './visits.service.ts';
import { ChoiceBody, MissedBody, VisitPlan, WindowsBody } from './visits.schemas.ts';

/** Registers the visit routes. */
export function visitRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/jobs/{uuid}/visit: windows, booked visit, free slots, missed visits. */
    app.get('/api/jobs/:uuid/visit', {
      config: { permission: 'api.jobs.manage.manage' },
      schema: {
        tags: ['jobs'],
        summary: 'Read the visit plan of a job',
        description: "The tenant's availability windows, the booked timed visit, the contractor's free slots (Assigned or Scheduled jobs) and the missed visits with who missed them. Times are UTC instants with a London label.",
        params: JobParams,
        response: responses(DataEnvelope(VisitPlan), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await visitPlan(deps, requireAuth(request), request.params.uuid), 'Visit plan retrieved'),
    });

    /** PUT /api/jobs/{uuid}/visit/windows: the tenant's availability windows. */
    app.put('/api/jobs/:uuid/visit/windows', {
      config: { permission: 'api.jobs.transitions.manage' },
      schema: {
        tags: ['jobs'],
        summary: "Give the tenant's availability windows",
        description:
          'The job\'s tenant (or staff who may write the job) replaces the windows: at most 6, each 60 minutes to 12 hours, in the future, ending within 60 days, not overlapping (400 naming the rule). ' +
          'Before the work starts (Reported to Scheduled; otherwise 409). The contractor then books a slot inside one. Needs a CSRF token.',
        params: JobParams,
        body: WindowsBody,
        response: responses(DataEnvelope(VisitPlan), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => ok(await setWindows(deps, requireAuth(request), request.params.uuid, request.body.windows), 'Windows saved'),
    });

    /** POST /api/jobs/{uuid}/visit/choice: the tenant picks a free slot. */
    app.post('/api/jobs/:uuid/visit/choice', {
      config: { permission: 'api.jobs.transitions.manage' },
      schema: {
        tags: ['jobs'],
        summary: "Pick one of the contractor's free slots (tenant)",
        description:
          'The job\'s tenant books one of free_slots of GET /api/jobs/{uuid}/visit: the job becomes Scheduled and the contractor is told (job.visit_booked). ' +
          'Not a free slot: 400; taken meanwhile: 409. Needs a CSRF token.',
        params: JobParams,
        body: ChoiceBody,
        response: responses(DataEnvelope(Job), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => {
        const { starts_at, ends_at } = request.body;
        return ok(await chooseSlot(deps, requireAuth(request), actorOf(request), request.params.uuid, { starts_at, ends_at }), 'Visit booked');
      },
    });

    /** POST /api/jobs/{uuid}/visit/missed: a booked visit was missed. */
    app.post('/api/jobs/:uuid/visit/missed', {
      config: { permission: 'api.jobs.transitions.manage' },
      schema: {
        tags: ['jobs'],
        summary: 'Record a missed visit and who missed it',
        description:
          'missed_by tenant (no access; recorded by the contractor or staff) or contractor (no-show; recorded by the tenant or staff). Once the booked visit has started; ' +
          'the job goes back to Assigned with a history row naming who missed it, and the contractor\'s scorecard counts it. Needs a CSRF token.',
        params: JobParams,
        body: MissedBody,
        response: responses(DataEnvelope(Job), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) =>
        ok(await recordMissedVisit(deps, requireAuth(request), actorOf(request), request.params.uuid, { missed_by: request.body.missed_by, note: request.body.note }), 'Missed visit recorded'),
    });
  };
}
