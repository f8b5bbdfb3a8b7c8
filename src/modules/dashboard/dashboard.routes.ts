/** GET /api/dashboard: the caller's dashboard figures (docs/insight.md "Dashboard"). */
import type { AppDeps } from '../../app-deps.ts';
import { DataEnvelope, ok, responses } from '../../http/envelope.ts';
import { requireAuth, type App } from '../../http/route-types.ts';
import { DashboardData } from './dashboard.schemas.ts';
import { dashboard } from './dashboard.service.ts';

/** Registers the dashboard route. */
export function dashboardRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/dashboard: open jobs, new jobs, visits and certificate expiries of the caller's reach. */
    app.get('/api/dashboard', {
      config: { permission: 'api.dashboard.view' },
      schema: {
        tags: ['dashboard'],
        summary: 'Dashboard metrics of the caller',
        description:
          "Counts over the jobs the caller may open (SysOps all; agency staff their agency; agents their branch and sharing " +
          'branches; contractors their assigned jobs; tenants their own). Day windows are London days; the week starts on ' +
          'Monday. `sla` and `unpaid_invoices` are absent until their modules provide them.',
        response: responses(DataEnvelope(DashboardData), [401, 403, 429]),
      },
      handler: async (request) => ok(await dashboard(deps, requireAuth(request)), 'Dashboard retrieved'),
    });
  };
}
