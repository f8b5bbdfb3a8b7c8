/** GET and POST /api/jobs/manage (spec 4.16). */
import type { AppDeps } from '../../app-deps.ts';
import { DataEnvelope, ListEnvelope, list, ok, responses } from '../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../http/route-types.ts';
import { CreateJobBody, Job, ListJobsQuery } from './jobs.schemas.ts';
import { createJob, listVisibleJobs } from './jobs.service.ts';

/** Registers the jobs routes. */
export function jobsRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/jobs/manage: the jobs the caller may see, newest first, paginated. */
    app.get('/api/jobs/manage', {
      config: { permission: 'api.jobs.manage.manage' },
      schema: {
        tags: ['jobs'],
        summary: 'List the jobs the caller may see',
        description: 'Agents see their branch (and branches that share), admins their agency, contractors jobs assigned to them, tenants their own jobs.',
        querystring: ListJobsQuery,
        response: responses(ListEnvelope(Job), [400, 401, 403, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await listVisibleJobs(deps, requireAuth(request), request.query);
        return list(rows, total, 'Jobs retrieved');
      },
    });

    /** POST /api/jobs/manage: creates a job (title and priority required) in status Reported. */
    app.post('/api/jobs/manage', {
      config: { permission: 'api.jobs.manage.manage' },
      schema: {
        tags: ['jobs'],
        summary: 'Create (report) a job',
        description: 'title (1 to 200 characters) and priority (1 emergency to 5 planned) are required. Needs a CSRF token.',
        body: CreateJobBody,
        response: responses(DataEnvelope(Job), [400, 401, 403, 404, 409, 413, 429], 201),
      },
      handler: async (request, reply) => {
        const job = await createJob(deps, requireAuth(request), actorOf(request), request.body);
        void reply.status(201);
        return ok(job, 'Job created');
      },
    });
  };
}
