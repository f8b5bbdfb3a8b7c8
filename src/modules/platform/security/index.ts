/** The security module's public door: the blacklist guard, its routes and the login-throttle hook. */
export { BlacklistGuard } from './blacklist.guard.ts';
export { blacklistRoutes } from './blacklist.routes.ts';
export { loginThrottleTripped } from './blacklist.service.ts';
