/**
 * Tenancies with their dates and tenants, and the documents served on them (docs/compliance.md
 * "Tenancies and served documents"). The module's public door: other modules and the composition
 * root import only this file (docs/architecture.md, module rule).
 */
export { tenanciesRoutes } from './tenancies.routes.ts';
export { allObligations, applies, obligations, RULES as SERVED_DOCUMENT_RULES } from './served-rules.ts';
