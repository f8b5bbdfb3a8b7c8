/**
 * Tenants of an agency (spec: tenants).
 * The module's public door: other modules and the composition root import only this file
 * (docs/architecture.md, module rule).
 */
export { tenantsRoutes } from './tenants.routes.ts';
export { getTenantRow, toTenantDto } from './tenants.service.ts';
export { findTenantRef } from './tenants.repository.ts';
export type { TenantRow } from './tenants.repository.ts';
