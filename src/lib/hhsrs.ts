/**
 * The 29 hazards of the Housing Health and Safety Rating System (Housing Act 2004, Part 1; the
 * Housing Health and Safety Rating System (England) Regulations 2005, Schedule 1), the categories a
 * job's hazard takes, and the names of the statutory clocks of a hazard (docs/compliance.md
 * "Hazards and statutory clocks"). Reference data shared by the hazards and messaging modules.
 */

/** One HHSRS hazard: a stable code and its name in the regulations. */
export interface HazardCategory {
  code: string;
  name: string;
  /** The regulations' group: physiological, psychological, infection or accidents. */
  group: string;
}

const g = (group: string, list: Array<[string, string]>): HazardCategory[] => list.map(([code, name]) => ({ code, name, group }));

/** Every HHSRS hazard, in the regulations' order. */
export const HHSRS_HAZARDS: readonly HazardCategory[] = [
  ...g('physiological', [
    ['damp_and_mould', 'Damp and mould growth'],
    ['excess_cold', 'Excess cold'],
    ['excess_heat', 'Excess heat'],
    ['asbestos_and_mmf', 'Asbestos and MMF'],
    ['biocides', 'Biocides'],
    ['carbon_monoxide', 'Carbon monoxide and fuel combustion products'],
    ['lead', 'Lead'],
    ['radiation', 'Radiation'],
    ['uncombusted_fuel_gas', 'Uncombusted fuel gas'],
    ['volatile_organic_compounds', 'Volatile organic compounds'],
  ]),
  ...g('psychological', [
    ['crowding_and_space', 'Crowding and space'],
    ['entry_by_intruders', 'Entry by intruders'],
    ['lighting', 'Lighting'],
    ['noise', 'Noise'],
  ]),
  ...g('infection', [
    ['domestic_hygiene', 'Domestic hygiene, pests and refuse'],
    ['food_safety', 'Food safety'],
    ['personal_hygiene', 'Personal hygiene, sanitation and drainage'],
    ['water_supply', 'Water supply'],
  ]),
  ...g('accidents', [
    ['falls_baths', 'Falls associated with baths etc.'],
    ['falls_level_surfaces', 'Falling on level surfaces etc.'],
    ['falls_stairs', 'Falling on stairs etc.'],
    ['falls_between_levels', 'Falling between levels'],
    ['electrical_hazards', 'Electrical hazards'],
    ['fire', 'Fire'],
    ['flames_hot_surfaces', 'Flames, hot surfaces etc.'],
    ['collision_and_entrapment', 'Collision and entrapment'],
    ['explosions', 'Explosions'],
    ['amenities_position', 'Position and operability of amenities etc.'],
    ['structural_collapse', 'Structural collapse and falling elements'],
  ]),
];

/** The codes, for the request schemas. */
export const HAZARD_CODES = HHSRS_HAZARDS.map((h) => h.code);

/** The name of a hazard code (the code itself for an unknown one). */
export function hazardName(code: string): string {
  return HHSRS_HAZARDS.find((h) => h.code === code)?.name ?? code;
}

/** The statutory clock kinds, in the order they are shown. */
export const HAZARD_CLOCK_KINDS = ['make_safe', 'investigate', 'summary', 'works_start', 'further_works_start', 'works_complete'] as const;
export type HazardClockKind = (typeof HAZARD_CLOCK_KINDS)[number];

/** What each statutory clock means, for people (messages, the job page, the evidence pack). */
export const HAZARD_CLOCK_LABELS: Record<string, string> = {
  make_safe: 'Investigate and make safe within 24 hours of becoming aware',
  investigate: 'Investigate within 10 working days of becoming aware (reg. 6)',
  summary: 'Written summary to reach the tenant within 3 working days of the investigation (reg. 9)',
  works_start: 'Relevant safety work within 5 working days of the investigation (reg. 11(2)(a))',
  further_works_start: 'Further (preventative) works begun within 5 working days of the investigation (reg. 13(2))',
  further_works_start_12_weeks: 'Further (preventative) works begun as soon as reasonably practicable and within 12 weeks of the investigation (reg. 13(3))',
  /** Clocks planned before SI 2025/1042 was applied as written (an agency period of working days); no longer planned. */
  works_complete: 'Works completed within the agency\'s period (no longer a statutory clock)',
};
