/** GET /api/analytics/jobs (docs/insight.md "Analytics"). */
import type { AppDeps } from '../../app-deps.ts';
import { ListEnvelope, list, responses } from '../../http/envelope.ts';
import { requireAuth, type App } from '../../http/route-types.ts';
import { AnalyticsQuery, AnalyticsRowSchema } from './analytics.schemas.ts';
import { jobAnalytics } from './analytics.service.ts';

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
          'completion; first-time fix rate (completed jobs scheduled at most once); agreed cost per completed job in pence. ' +
          'Only jobs the caller may open count. Periods without events are left out.',
        querystring: AnalyticsQuery,
        response: responses(ListEnvelope(AnalyticsRowSchema), [400, 401, 403, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await jobAnalytics(deps, requireAuth(request), request.query);
        return list(rows, total, 'Analytics retrieved');
      },
    });
  };
}
