/** GET /api/analytics/jobs (docs/insight.md "Analytics"), contractor scorecards and deflections (docs/tenant-reporting.md). */
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, list, ok, responses } from '../../../http/envelope.ts';
import { UuidParams } from '../../../http/schema-primitives.ts';
import { requireAuth, type App } from '../../../http/route-types.ts';
import { AnalyticsQuery, AnalyticsRowSchema, DeflectionRowSchema, RangeQuery, Scorecard } from './analytics.schemas.ts';
import { contractorScorecard, contractorScorecards, jobAnalytics, reportDeflections } from './analytics.service.ts';

/** Registers the analytics routes. */
export function analyticsRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/analytics/jobs: figures per period and group; `count` is the number of (period, group) rows. */
    app.get('/api/analytics/jobs', {
      config: { permission: 'api.analytics.view' },
      schema: {
        tags: ['analytics'],
        summary: 'Job analytics by period and group',
        description:
          'Over from_date..to_date (London dates, at most 731 days; else 400 naming to_date), by week (Monday) or month and ' +
          'by branch, trade, contractor, job_type or priority: jobs created, completed, cancelled (each counted in the period ' +
          'of its own date); median and 90th percentile of the elapsed seconds from creation to assignment, attendance and ' +
          'completion; first-time fix rate (completed jobs scheduled at most once and never recalled); agreed cost per completed job in pence. ' +
          'Only jobs the caller may open count. Periods without events are left out.',
        querystring: AnalyticsQuery,
        response: responses(ListEnvelope(AnalyticsRowSchema), [400, 401, 403, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await jobAnalytics(deps, requireAuth(request), request.query);
        return list(rows, total, 'Analytics retrieved');
      },
    });

    /** GET /api/analytics/contractors: a scorecard per contractor. */
    app.get('/api/analytics/contractors', {
      config: { permission: 'api.analytics.view' },
      schema: {
        tags: ['analytics'],
        summary: 'Contractor scorecards',
        description:
          'Per contractor of the agency, over its jobs the caller may see created from_date..to_date (London dates, default the last 90 days, at most 731): ' +
          'response (median seconds from assignment to acceptance), attendance on the booked slot, first-time fix (scheduled at most once and never recalled; a recall lowers it), ' +
          'average survey rating, agreed cost per completed job (pence) and SLA compliance (clocks met / met + breached).',
        querystring: RangeQuery,
        response: responses(ListEnvelope(Scorecard), [400, 401, 403, 429]),
      },
      handler: async (request) => {
        const rows = await contractorScorecards(deps, requireAuth(request), request.query);
        return list(rows, rows.length, 'Scorecards retrieved');
      },
    });

    /** GET /api/contractors/{uuid}/scorecard: one contractor's scorecard. */
    app.get('/api/contractors/:uuid/scorecard', {
      config: { permission: 'api.contractors.view' },
      schema: {
        tags: ['contractors'],
        summary: "A contractor's scorecard",
        description: 'As one row of GET /api/analytics/contractors. Another agency\'s contractor is 404.',
        params: UuidParams,
        querystring: RangeQuery,
        response: responses(DataEnvelope(Scorecard), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await contractorScorecard(deps, requireAuth(request), request.params.uuid, request.query), 'Scorecard retrieved'),
    });

    /** GET /api/analytics/deflections: guided reports per flow and how many advice settled. */
    app.get('/api/analytics/deflections', {
      config: { permission: 'api.analytics.view' },
      schema: {
        tags: ['analytics'],
        summary: 'Guided reports deflected, by flow',
        description: 'Per triage flow, the guided reports from_date..to_date (London dates, default the last 90 days): in all, deflected (self-help advice, no job), emergencies, new jobs and reports added to an open job.',
        querystring: RangeQuery,
        response: responses(ListEnvelope(DeflectionRowSchema), [400, 401, 403, 429]),
      },
      handler: async (request) => {
        const rows = await reportDeflections(deps, requireAuth(request), request.query);
        return list(rows, rows.length, 'Deflections retrieved');
      },
    });
  };
}
