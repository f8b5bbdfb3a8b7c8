/** The analytics module's public door (docs/insight.md "Analytics"). */
export { analyticsRoutes } from './analytics.routes.ts';
export { jobAnalytics } from './analytics.service.ts';
