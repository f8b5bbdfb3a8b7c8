/** Job records: /api/jobs/manage (spec 4.16), /api/jobs/{uuid}, statuses and types (docs/jobs.md). */
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, list, listOfJson, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { jobLifecycleRoutes } from './job-lifecycle.routes.ts';
import { visitRoutes } from './visits.routes.ts';
import { listJobTypes, listStatuses } from './job-lifecycle.service.ts';
import {
  CreateJobBody, DeleteJobBody, DeleteJobQuery, IdempotencyHeaders, Job, JobParams, JobType, ListJobsQuery, StatusInfo, UpdateJobBody,
} from './jobs.schemas.ts';
import { createJob, deleteJob, getJob, JOBS_COUNT_CAP, listVisibleJobsJson, updateJob } from './jobs.service.ts';

/** Registers the jobs routes (records here, lifecycle in job-lifecycle.routes.ts). */
export function jobsRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/jobs/manage: the jobs the caller may see, filtered, sorted, paginated. */
    app.get('/api/jobs/manage', {
      config: { permission: 'api.jobs.manage.manage' },
      schema: {
        tags: ['jobs'],
        summary: 'List the jobs the caller may see',
        description:
          'Agents see their branch (and branches that share), admins their agency, contractors jobs assigned to them, tenants their own jobs. ' +
          'Filters: status_id, job_type_id, priority, branch_uuid, contractor_uuid, tenant_uuid, address_uuid (the property), agent_uuid, from_date/to_date (created_at, UTC dates, inclusive), ' +
          'q (case-insensitive text in reference, title, description). sort=created_at|updated_at|priority|scheduled_for, order=asc|desc (default created_at desc; id breaks ties; nulls last). ' +
          `count is the number of jobs matching, exact up to ${JOBS_COUNT_CAP}; above that it is ${JOBS_COUNT_CAP} and the header X-Count-Capped: true is sent.`,
        querystring: ListJobsQuery,
        response: responses(ListEnvelope(Job), [400, 401, 403, 429]),
      },
      handler: async (request, reply) => {
        // The page is written as JSON by the database (job-json.ts); the bytes are those of list().
        const { json, total, capped } = await listVisibleJobsJson(deps, requireAuth(request), request.query);
        if (capped) void reply.header('x-count-capped', 'true');
        return reply.type('application/json; charset=utf-8').send(listOfJson(json, total, 'Jobs retrieved'));
      },
    });

    /** POST /api/jobs/manage: creates (reports) a job in status Reported; idempotent with Idempotency-Key. */
    app.post('/api/jobs/manage', {
      config: { permission: 'api.jobs.manage.manage' },
      schema: {
        tags: ['jobs'],
        summary: 'Create (report) a job',
        description:
          'title (1 to 200 characters) and priority (1 emergency to 5 planned) are required. Needs a CSRF token. ' +
          'Optional header Idempotency-Key: the same key and body from the same account within 24 h returns the first response ' +
          '(header Idempotent-Replayed: true); another body is 422.',
        headers: IdempotencyHeaders,
        body: CreateJobBody,
        response: responses(DataEnvelope(Job), [400, 401, 403, 404, 409, 413, 429], 201),
      },
      handler: async (request, reply) => {
        const auth = requireAuth(request);
        // The route runs nothing in the transaction after the creation: its last trip may commit.
        const job = await deps.db.transaction().execute((trx) => createJob(deps, trx, auth, actorOf(request), request.body, { last: true }));
        return reply.status(201).send(ok(job, 'Job created'));
      },
    });

    /** GET /api/jobs/statuses: the lifecycle. */
    app.get('/api/jobs/statuses', {
      config: { permission: 'api.jobs.manage.manage' },
      schema: {
        tags: ['jobs'],
        summary: 'List job statuses and the allowed moves',
        description: 'Each status with is_open and allowed_next: the statuses it may move to, who may make the move (parties), through which endpoint (via) and the date field it sets.',
        response: responses(ListEnvelope(StatusInfo), [401, 403, 429]),
      },
      handler: async () => {
        const rows = await listStatuses(deps);
        return list(rows, rows.length, 'Job statuses retrieved');
      },
    });

    /** GET /api/jobs/types: the job types. */
    app.get('/api/jobs/types', {
      config: { permission: 'api.jobs.manage.manage' },
      schema: {
        tags: ['jobs'],
        summary: 'List job types',
        description: 'Reactive repair, emergency, planned maintenance, inspection, compliance check, void works.',
        response: responses(ListEnvelope(JobType), [401, 403, 429]),
      },
      handler: async () => {
        const rows = await listJobTypes(deps);
        return list(rows, rows.length, 'Job types retrieved');
      },
    });

    /** GET /api/jobs/{uuid}: one job. */
    app.get('/api/jobs/:uuid', {
      config: { permission: 'api.jobs.manage.manage' },
      schema: {
        tags: ['jobs'],
        summary: 'Read one job',
        description: 'All fields and date fields. Costs, owning agent and hold origin are absent for tenants. A job outside the caller\'s scope is 404.',
        params: JobParams,
        response: responses(DataEnvelope(Job), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await getJob(deps, requireAuth(request), request.params.uuid), 'Job retrieved'),
    });

    /** PUT /api/jobs/{uuid}: edits fields of an open job. */
    app.put('/api/jobs/:uuid', {
      config: { permission: 'api.jobs.update.manage' },
      schema: {
        tags: ['jobs'],
        summary: 'Edit a job',
        description:
          'Partial update: only the fields sent change (title, priority, description, job_type_id, trade_id, address_uuid, tenant_uuid, costs in pence; null clears). ' +
          'Status, contractor and dates change through transitions and assignment. Closed or Cancelled jobs: 409. An agent may not edit a shared branch\'s job (403).',
        params: JobParams,
        body: UpdateJobBody,
        response: responses(DataEnvelope(Job), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => ok(await updateJob(deps, requireAuth(request), actorOf(request), request.params.uuid, request.body), 'Job updated'),
    });

    /** DELETE /api/jobs/{uuid}: cancels (or, soft_delete=true, hides a closed job). */
    app.delete('/api/jobs/:uuid', {
      config: { permission: 'api.jobs.transitions.manage' },
      schema: {
        tags: ['jobs'],
        summary: 'Cancel a job (or soft-delete a closed one)',
        description:
          'Moves the job to Cancelled through the lifecycle rules (sets cancelled_at, writes history; optional note). A tenant may cancel only its own Reported job. ' +
          'With ?soft_delete=true (needs api.jobs.delete.manage) a Closed or Cancelled job is hidden for good (deleted_at); open jobs: 409.',
        params: JobParams,
        querystring: DeleteJobQuery,
        body: DeleteJobBody,
        response: responses(DataEnvelope(Job), [400, 401, 403, 404, 409, 429]),
      },
      handler: async (request) => {
        const soft = request.query.soft_delete === true;
        const job = await deleteJob(deps, requireAuth(request), actorOf(request), request.params.uuid, { softDelete: soft, note: request.body.note });
        return ok(job, soft ? 'Job deleted' : 'Job cancelled');
      },
    });

    await app.register(jobLifecycleRoutes(deps));
    await app.register(visitRoutes(deps));
  };
}
