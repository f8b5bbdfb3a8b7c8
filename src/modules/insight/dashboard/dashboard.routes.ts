/** GET /api/dashboard: the caller's dashboard figures (docs/insight.md "Dashboard"). */
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ok, responses } from '../../../http/envelope.ts';
import { requireAuth, type App } from '../../../http/route-types.ts';
import { DashboardData } from './dashboard.schemas.ts';
import { dashboard } from './dashboard.service.ts';

/** Registers the dashboard route. */
export function dashboardRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/dashboard: open jobs, new jobs, visits, certificate expiries, SLA and unpaid invoices of the caller's reach. */
    app.get('/api/dashboard', {
      config: { permission: 'api.dashboard.view' },
      schema: {
        tags: ['dashboard'],
        summary: 'Dashboard metrics of the caller',
        description:
          "Counts over the jobs the caller may open (SysOps all; agency staff their agency; agents their branch and sharing " +
          'branches; contractors their assigned jobs; tenants their own). Day windows are London days; the week starts on ' +
          'Monday. `sla` counts open jobs whose most urgent SLA clock is at risk or breached (absent for tenants); ' +
          '`unpaid_invoices` the issued, part-paid and overdue invoices the caller may open and what is still owed on them ' +
          '(absent for callers who may not read invoices).',
        response: responses(DataEnvelope(DashboardData), [401, 403, 429]),
      },
      handler: async (request) => ok(await dashboard(deps, requireAuth(request)), 'Dashboard retrieved'),
    });
  };
}
