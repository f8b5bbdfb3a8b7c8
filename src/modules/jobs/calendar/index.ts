/**
 * Calendar and iCalendar feeds of jobs (spec: calendar), and London-time date helpers.
 * The module's public door: other modules and the composition root import only this file
 * (docs/architecture.md, module rule).
 */
export { calendarRoutes } from './calendar.routes.ts';
