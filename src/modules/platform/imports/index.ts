/**
 * Imports of properties, tenants, contractors and landlords from CSV or XLSX (docs/onboarding.md).
 * The module's public door: other modules and the composition root import only this file
 * (docs/architecture.md, module rule).
 */
import type { PeriodicTask } from '../../../events/index.ts';
import { resumeImports } from './imports.service.ts';

export { importsRoutes } from './imports.routes.ts';
export { resumeImports } from './imports.service.ts';

/** Commits queued imports and resumes stopped ones, every minute. */
export const importsCommitTask: PeriodicTask = { name: 'imports.commit', cron: '* * * * *', run: async (deps) => void (await resumeImports(deps)) };

/** Periodic tasks of the imports module. */
export const periodicTasks: PeriodicTask[] = [importsCommitTask];
