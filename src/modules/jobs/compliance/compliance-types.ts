/**
 * The UK compliance item types every agency starts with (docs/compliance.md "Types"), each with
 * its legal interval and the document that proves it. An agency may add its own types; these are
 * seeded, once, the first time the agency's register is used.
 */

/** One seeded type. */
export interface SeedType {
  code: string;
  name: string;
  /** months between certificates; null: none */
  interval_months: number | null;
  /** checked at the start of each tenancy (no fixed interval) */
  at_tenancy_start: boolean;
  /** needed only by houses in multiple occupation */
  hmo_only: boolean;
  required_document: string;
}

/** The UK types (England and Wales law; Scotland and Northern Ireland have similar duties). */
export const UK_COMPLIANCE_TYPES: readonly SeedType[] = [
  { code: 'gas_safety', name: 'Gas safety record', interval_months: 12, at_tenancy_start: false, hmo_only: false, required_document: 'Landlord gas safety record (CP12) by a Gas Safe registered engineer' },
  { code: 'eicr', name: 'Electrical installation condition report', interval_months: 60, at_tenancy_start: false, hmo_only: false, required_document: 'EICR by a qualified electrician, graded satisfactory' },
  { code: 'epc', name: 'Energy performance certificate', interval_months: 120, at_tenancy_start: false, hmo_only: false, required_document: 'EPC of rating E or better, lodged on the register' },
  { code: 'smoke_co_alarms', name: 'Smoke and CO alarms', interval_months: null, at_tenancy_start: true, hmo_only: false, required_document: 'Record that every smoke and carbon monoxide alarm worked on the first day of the tenancy' },
  { code: 'legionella', name: 'Legionella risk assessment', interval_months: 24, at_tenancy_start: false, hmo_only: false, required_document: 'Legionella risk assessment of the water system' },
  { code: 'hmo_fire_risk', name: 'HMO fire risk assessment', interval_months: 12, at_tenancy_start: false, hmo_only: true, required_document: 'Fire risk assessment of the common parts (Regulatory Reform (Fire Safety) Order 2005)' },
  { code: 'hmo_licence', name: 'HMO licence', interval_months: 60, at_tenancy_start: false, hmo_only: true, required_document: 'Licence issued by the local housing authority' },
];
