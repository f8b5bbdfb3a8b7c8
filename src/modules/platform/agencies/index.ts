/**
 * Agencies (docs/onboarding.md): creation with a first branch and administrator, the profile,
 * suspension, the setup checklist.
 * The module's public door: other modules and the composition root import only this file
 * (docs/architecture.md, module rule).
 */
export { agenciesRoutes } from './agencies.routes.ts';
