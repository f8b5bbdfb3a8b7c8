/**
 * Users, invitations, passwords and sessions (spec: users).
 * The module's public door: other modules and the composition root import only this file
 * (docs/architecture.md, module rule).
 */
export { usersRoutes } from './users.routes.ts';
export { UserStatus } from './user-status.ts';
/** Creating a user (with an invitation), for the first administrator of a new agency (docs/onboarding.md). */
export { createUser } from './users.service.ts';
