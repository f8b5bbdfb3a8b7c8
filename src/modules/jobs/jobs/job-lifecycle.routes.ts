/** Job lifecycle routes (docs/jobs.md): transitions, history, assignment, accept, decline. */
import { Type } from 'typebox';
import type { AppDeps } from '../../../app-deps.ts';
import { CsrfOnlyBody as EmptyBody } from '../../../http/optional-body.ts';
import { DataEnvelope, ListEnvelope, list, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { acceptAssignment, assignJob, bookVisit, declineAssignment, jobHistory, transitionJob } from './job-lifecycle.service.ts';
import { AssignmentBody, BookingBody, DeclineBody, HistoryEntry, HistoryQuery, Job, JobParams, TransitionBody } from './jobs.schemas.ts';
import { Uuid } from '../../../http/schema-primitives.ts';



/** Registers the lifecycle routes. */
export function jobLifecycleRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** POST /api/jobs/{uuid}/transitions: one status move. */
    app.post('/api/jobs/:uuid/transitions', {
      config: { permission: 'api.jobs.transitions.manage' },
      schema: {
        tags: ['jobs'],
        summary: 'Move a job to another status',
        description:
          'Checks the transition map (GET /api/jobs/statuses): an illegal move is 409 "Cannot move a job from X to Y"; a move the caller\'s party may not make is 403. ' +
          'Sets the move\'s date field, writes a history row and the activity entry in one transaction; two concurrent moves cannot both succeed. ' +
          'From On hold a job resumes only to the status it came from.',
        params: JobParams,
        body: TransitionBody,
        response: responses(DataEnvelope(Job), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => ok(await transitionJob(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body), 'Job status changed'),
    });

    /** GET /api/jobs/{uuid}/history: the status moves. */
    app.get('/api/jobs/:uuid/history', {
      config: { permission: 'api.jobs.manage.manage' },
      schema: {
        tags: ['jobs'],
        summary: 'Read the status history of a job',
        description: 'Oldest first, starting with the creation (null -> Reported). Tenants get no author and no note.',
        params: JobParams,
        querystring: HistoryQuery,
        response: responses(ListEnvelope(HistoryEntry), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await jobHistory(deps, requireAuth(request), request.params.uuid, request.query);
        return list(rows, total, 'Job history retrieved');
      },
    });

    /** POST /api/jobs/{uuid}/assignment: gives the job to a contractor. */
    app.post('/api/jobs/:uuid/assignment', {
      config: { permission: 'api.jobs.assignment.manage' },
      schema: {
        tags: ['jobs'],
        summary: 'Assign a job to a contractor',
        description:
          'From Approved, Assigned or Scheduled. Without scheduled_for the job becomes Assigned, with it Scheduled; sets assigned_at, scheduled_for, time_range_id and resets the acceptance. ' +
          'The contractor must be eligible (same agency, trade and valid certificates): otherwise 404 or 409.',
        params: JobParams,
        body: AssignmentBody,
        response: responses(DataEnvelope(Job), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => ok(await assignJob(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body), 'Job assigned'),
    });

    /** POST /api/jobs/{uuid}/assignment/accept: the contractor accepts. */
    app.post('/api/jobs/:uuid/assignment/accept', {
      config: { permission: 'api.jobs.assignment.respond' },
      schema: {
        tags: ['jobs'],
        summary: 'Accept an assignment (contractor)',
        description: 'The assigned contractor accepts an Assigned or Scheduled job: sets contractor_accepted_at. Twice: 409.',
        params: JobParams,
        body: EmptyBody,
        response: responses(DataEnvelope(Job), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => ok(await acceptAssignment(deps, requireAuth(request), actorOf(request), request.params.uuid), 'Assignment accepted'),
    });

    /** POST /api/jobs/{uuid}/assignment/booking: the contractor books its visit. */
    app.post('/api/jobs/:uuid/assignment/booking', {
      config: { permission: 'api.jobs.assignment.respond' },
      schema: {
        tags: ['jobs'],
        summary: 'Book or move the visit (contractor)',
        description:
          'The assigned contractor books its visit on an Assigned or Scheduled job: the job becomes Scheduled for scheduled_for (and the optional slot), or for a timed visit ' +
          "starts_at..ends_at inside one of the tenant's windows (GET /api/jobs/{uuid}/visit); the tenant is told (job.visit_booked). A past date, unknown slot or a slot rule broken: 400; " +
          "another status, or a timed visit overlapping another booking of the contractor: 409. Needs a CSRF token.",
        params: JobParams,
        body: BookingBody,
        response: responses(DataEnvelope(Job), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => ok(await bookVisit(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body), 'Visit booked'),
    });

    /** POST /api/jobs/{uuid}/assignment/decline: the contractor declines. */
    app.post('/api/jobs/:uuid/assignment/decline', {
      config: { permission: 'api.jobs.assignment.respond' },
      schema: {
        tags: ['jobs'],
        summary: 'Decline an assignment (contractor)',
        description: 'The assigned contractor declines (optional reason): contractor, slot and date are cleared and the job goes back to Approved, recorded in the history.',
        params: JobParams,
        body: DeclineBody,
        response: responses(
          DataEnvelope(Type.Object({ uuid: Uuid(), status_id: Type.Integer(), status: Type.String() })),
          [400, 401, 403, 404, 409, 429],
        ),
      },
      handler: async (request) =>
        ok(await declineAssignment(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body.reason), 'Assignment declined'),
    });
  };
}
