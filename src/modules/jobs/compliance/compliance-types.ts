/**
 * The UK compliance item types every agency starts with (docs/compliance.md "Types"), each with
 * its legal interval, the document that proves it, the regulation it implements and which
 * properties need it (docs/compliance.md "What a property needs"). An agency may add its own
 * types; these are seeded, once, the first time the agency's register is used.
 */

/**
 * Which properties a type applies to: `dwelling` every let unit, `gas` a unit whose gas supply is
 * not recorded as absent, `hmo` a unit marked HMO, `communal` a building's communal area, `lift`
 * the communal area of a building with a lift, `manual` only where added by hand (custom types).
 */
export type AppliesTo = 'dwelling' | 'gas' | 'hmo' | 'communal' | 'lift' | 'manual';
export const APPLIES_TO: readonly AppliesTo[] = ['dwelling', 'gas', 'hmo', 'communal', 'lift', 'manual'];

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
  applies_to: AppliesTo;
  /** the regulation and paragraph the type implements, cited on its register rows */
  regulation: string;
}

/** The UK types (England law; Scotland, Wales and Northern Ireland have similar duties). */
export const UK_COMPLIANCE_TYPES: readonly SeedType[] = [
  {
    code: 'gas_safety', name: 'Gas safety record', interval_months: 12, at_tenancy_start: false, hmo_only: false, applies_to: 'gas',
    required_document: 'Landlord gas safety record (CP12) by a Gas Safe registered engineer',
    regulation: 'Gas Safety (Installation and Use) Regulations 1998, reg. 36(3): checks at intervals of not more than 12 months (a check in the 2 months before the deadline keeps it); reg. 36(6): a copy to the tenant within 28 days',
  },
  {
    code: 'eicr', name: 'Electrical installation condition report', interval_months: 60, at_tenancy_start: false, hmo_only: false, applies_to: 'dwelling',
    required_document: 'EICR by a qualified electrician, graded satisfactory',
    regulation: 'Electrical Safety Standards in the Private Rented Sector (England) Regulations 2020, reg. 3: inspection at most every 5 years, a copy to the tenant within 28 days, remedial works within 28 days (or less if the report says)',
  },
  {
    code: 'epc', name: 'Energy performance certificate', interval_months: 120, at_tenancy_start: false, hmo_only: false, applies_to: 'dwelling',
    required_document: 'EPC of rating E or better, lodged on the register',
    regulation: 'Energy Performance of Buildings (England and Wales) Regulations 2012 (valid 10 years); Energy Efficiency (Private Rented Property) (England and Wales) Regulations 2015 (MEES): not let below E unless an exemption is registered',
  },
  {
    code: 'smoke_co_alarms', name: 'Smoke and CO alarms', interval_months: null, at_tenancy_start: true, hmo_only: false, applies_to: 'dwelling',
    required_document: 'Record that every smoke and carbon monoxide alarm worked on the first day of the tenancy',
    regulation: 'Smoke and Carbon Monoxide Alarm (England) Regulations 2015 (as amended 2022), reg. 4: a smoke alarm on each storey with living accommodation, a CO alarm in each room with a fixed combustion appliance (gas cookers excepted), checked on the day a tenancy begins',
  },
  {
    code: 'legionella', name: 'Legionella risk assessment', interval_months: 24, at_tenancy_start: false, hmo_only: false, applies_to: 'dwelling',
    required_document: 'Legionella risk assessment of the water system',
    regulation: 'Health and Safety at Work etc. Act 1974, s. 3, and COSHH Regulations 2002, reg. 6 (HSE ACoP L8): a risk assessment of the water system; no interval in law, reviewed every 2 years by custom',
  },
  {
    code: 'hmo_fire_risk', name: 'HMO fire risk assessment', interval_months: 12, at_tenancy_start: false, hmo_only: true, applies_to: 'hmo',
    required_document: 'Fire risk assessment of the common parts (Regulatory Reform (Fire Safety) Order 2005)',
    regulation: 'Regulatory Reform (Fire Safety) Order 2005, art. 9; Management of Houses in Multiple Occupation (England) Regulations 2006',
  },
  {
    code: 'hmo_licence', name: 'HMO licence', interval_months: 60, at_tenancy_start: false, hmo_only: true, applies_to: 'hmo',
    required_document: 'Licence issued by the local housing authority',
    regulation: 'Housing Act 2004, Part 2 (ss. 61 and 68: a licence of at most 5 years, with its conditions)',
  },
  {
    code: 'communal_fire_risk', name: 'Communal fire risk assessment', interval_months: 12, at_tenancy_start: false, hmo_only: false, applies_to: 'communal',
    required_document: 'Fire risk assessment of the building\'s common parts, structure and flat entrance doors',
    regulation: 'Regulatory Reform (Fire Safety) Order 2005, art. 9, as extended by the Fire Safety Act 2021; reviewed yearly by custom',
  },
  {
    code: 'communal_eicr', name: 'Communal electrics (EICR)', interval_months: 60, at_tenancy_start: false, hmo_only: false, applies_to: 'communal',
    required_document: 'EICR of the landlord\'s supply to the common parts',
    regulation: 'Electricity at Work Regulations 1989, reg. 4: systems maintained safe; inspected at most every 5 years by custom (BS 7671)',
  },
  {
    code: 'communal_legionella', name: 'Communal legionella risk assessment', interval_months: 24, at_tenancy_start: false, hmo_only: false, applies_to: 'communal',
    required_document: 'Legionella risk assessment of the building\'s shared water system',
    regulation: 'Health and Safety at Work etc. Act 1974, s. 3, and COSHH Regulations 2002, reg. 6 (HSE ACoP L8)',
  },
  {
    code: 'loler', name: 'Lift thorough examination (LOLER)', interval_months: 6, at_tenancy_start: false, hmo_only: false, applies_to: 'lift',
    required_document: 'Report of thorough examination of the passenger lift by a competent person',
    regulation: 'Lifting Operations and Lifting Equipment Regulations 1998, reg. 9(3): a lift carrying people examined at least every 6 months',
  },
];
