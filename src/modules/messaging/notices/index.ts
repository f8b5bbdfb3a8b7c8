/** Notices (docs/messaging.md "Notices"): the module's only public door. */
export { noticesRoutes } from './notices.routes.ts';
