/**
 * SLA breach detection endpoints (docs/sla.md): GET /api/sla/breaches, GET /api/jobs/{uuid}/sla,
 * GET /api/sla/compliance and GET/POST /api/sla/settings.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, list, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import {
  Breach, ComplianceQuery, ComplianceRow, JobClock, JobParams, ListBreachesQuery, SettingsQuery, SlaSettings, UpdateSettingsBody,
} from './sla.schemas.ts';
import { complianceReport, getSettings, jobClocks, listBreaches, updateSettings } from './sla.service.ts';

const VISIBILITY = 'Only jobs the caller sees in the jobs list count (same scope); anything else is the same 404 as a missing record.';

/** Registers the SLA routes. */
export function slaRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/sla/breaches: SLA clocks at risk or breached (or of one state), by due_at. */
    app.get('/api/sla/breaches', {
      config: { permission: 'api.sla.breaches.view' },
      schema: {
        tags: ['sla'],
        summary: 'List SLA clocks at risk or breached',
        description:
          'Default states at_risk and breached; filters state, branch_uuid, contractor_uuid, priority, job_type_id, ' +
          `from_date/to_date (due date, inclusive); sorted by due_at (order asc by default). ${VISIBILITY}`,
        querystring: ListBreachesQuery,
        response: responses(ListEnvelope(Breach), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await listBreaches(deps, requireAuth(request), request.query);
        return list(rows, total, 'SLA breaches retrieved');
      },
    });

    /** GET /api/jobs/{uuid}/sla: every SLA clock of one job. */
    app.get('/api/jobs/:uuid/sla', {
      config: { permission: 'api.sla.view' },
      schema: {
        tags: ['sla'],
        summary: 'SLA clocks of a job',
        description: `Every clock of the job with its rule and the time left in seconds, by due_at. ${VISIBILITY}`,
        params: JobParams,
        response: responses(ListEnvelope(JobClock), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => {
        const rows = await jobClocks(deps, requireAuth(request), request.params.uuid);
        return list(rows, rows.length, 'SLA clocks retrieved');
      },
    });

    /** GET /api/sla/compliance: met, breached, running, compliance % and median per group. */
    app.get('/api/sla/compliance', {
      config: { permission: 'api.sla.compliance.view' },
      schema: {
        tags: ['sla'],
        summary: 'SLA compliance report',
        description:
          'Clocks started between from_date and to_date (inclusive, UTC), grouped by branch (default), contractor, ' +
          `job_type or priority; not_applicable clocks are left out. ${VISIBILITY}`,
        querystring: ComplianceQuery,
        response: responses(ListEnvelope(ComplianceRow), [400, 401, 403, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await complianceReport(deps, requireAuth(request), request.query);
        return list(rows, total, 'SLA compliance retrieved');
      },
    });

    /** GET /api/sla/settings: the agency's UK region and at-risk share. */
    app.get('/api/sla/settings', {
      config: { permission: 'api.sla.settings.manage' },
      schema: {
        tags: ['sla'],
        summary: 'Read the agency SLA settings',
        description: 'SysOps pass agency_uuid; administrators read their own agency (another agency: 404).',
        querystring: SettingsQuery,
        response: responses(DataEnvelope(SlaSettings), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await getSettings(deps, requireAuth(request), request.query.agency_uuid), 'SLA settings retrieved'),
    });

    /** POST /api/sla/settings: changes the agency's UK region and/or at-risk share. */
    app.post('/api/sla/settings', {
      config: { permission: 'api.sla.settings.manage' },
      schema: {
        tags: ['sla'],
        summary: 'Change the agency SLA settings',
        description:
          'uk_region (england-and-wales, scotland, northern-ireland: whose bank holidays working days skip) and/or ' +
          'at_risk_percent (1 to 99). The open jobs of the agency are measured again. Needs a CSRF token.',
        body: UpdateSettingsBody,
        response: responses(DataEnvelope(SlaSettings), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await updateSettings(deps, requireAuth(request), actorOf(request), request.body), 'SLA settings updated'),
    });
  };
}
