/** The dashboard module's public door (docs/insight.md "Dashboard"). */
export { dashboardRoutes } from './dashboard.routes.ts';
export { dashboard, dashboardWindows } from './dashboard.service.ts';
export { DASHBOARD_SECTIONS, type DashboardSection, type DashboardContext } from './dashboard.sections.ts';
