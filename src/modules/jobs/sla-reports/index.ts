/**
 * The SLA endpoints (docs/sla.md): breaches list, a job's clocks, the compliance report and the
 * agency's SLA settings. Separate from the sla engine module so that the jobs module can call the
 * engine inside its transactions while these reads use the jobs module's scope (no import cycle).
 */
export { slaRoutes } from './sla.routes.ts';
/** The compliance report's rules and filters, for the named report `sla-compliance` (reports module). */
export { complianceReport } from './sla.service.ts';
export { ComplianceQuery, type ComplianceInput } from './sla.schemas.ts';
