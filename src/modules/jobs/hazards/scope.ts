/**
 * Which hazards the statutory clocks cover (docs/compliance.md "Scope"): pure functions, no SQL.
 *
 * The Hazards in Social Housing (Prescribed Requirements) (England) Regulations 2025 (SI 2025/1042,
 * in force 27 October 2025) apply to social housing in England (section 10A of the Landlord and
 * Tenant Act 1985, inserted by section 42 of the Social Housing (Regulation) Act 2023). Section 60
 * of the Renters' Rights Act 2025 gives a power to extend them to private renting; until that power
 * is commenced and regulations are made, a private rented property is covered only when the agency
 * applies the timescales as its own policy. Properties in Scotland, Wales and Northern Ireland are
 * never covered: no clocks.
 */

export const NATIONS = ['england', 'wales', 'scotland', 'northern_ireland'] as const;
export type Nation = (typeof NATIONS)[number];
export const TENURES = ['social', 'private_rented'] as const;
export type Tenure = (typeof TENURES)[number];
/** social: the regulations apply; private_rented_policy: the agency applies them as policy; not_covered: no clocks. */
export type HazardScope = 'social' | 'private_rented_policy' | 'not_covered';

const SCOTLAND = new Set(['AB', 'DD', 'DG', 'EH', 'FK', 'G', 'HS', 'IV', 'KA', 'KW', 'KY', 'ML', 'PA', 'PH', 'TD', 'ZE']);
const WALES = new Set(['CF', 'LD', 'LL', 'NP', 'SA']);
/** Districts of an English or Scottish area that lie in another nation. */
const DISTRICTS: Record<string, Nation> = {
  TD15: 'england', CH5: 'wales', CH6: 'wales', CH7: 'wales', CH8: 'wales',
  ...Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`SY${15 + i}`, 'wales' as Nation])),
};
/** Districts that straddle a border: the nation must be stated on the property. */
const STRADDLING = new Set(['TD12', 'CH4', 'SY10', 'LD7', 'LD8', 'NP16', 'NP25', 'HR2', 'HR3', 'HR5']);

/**
 * The nation of a UK postcode from its outward code (area and district).
 * @param postcode e.g. "EH1 1YZ", "ls6 6hn"
 * @returns the nation, or null for a district that straddles a border or a postcode that is not
 *   a UK one (the caller treats null as England until the property's nation is stated)
 */
export function nationOfPostcode(postcode: string): Nation | null {
  const outward = /^([A-Z]{1,2})(\d[A-Z\d]?)\s*\d[A-Z]{2}$/.exec(postcode.toUpperCase().replace(/\s+/g, ' ').trim());
  if (!outward) return null;
  const area = outward[1]!;
  const district = `${area}${outward[2]!.replace(/[A-Z]$/, '')}`;
  if (STRADDLING.has(district)) return null;
  if (DISTRICTS[district]) return DISTRICTS[district]!;
  if (area === 'BT') return 'northern_ireland';
  if (SCOTLAND.has(area)) return 'scotland';
  if (WALES.has(area)) return 'wales';
  return 'england';
}

/**
 * The scope of a hazard at a property.
 * @param p.nation the property's stated nation, else from its postcode (null: England assumed)
 * @param p.tenure the property's stated tenure (default private_rented: a letting agency's let)
 * @param p.privateRentedPolicy the agency applies the timescales to private renting as policy
 */
export function hazardScope(p: { nation: Nation | null; tenure: Tenure | null; privateRentedPolicy: boolean }): HazardScope {
  if ((p.nation ?? 'england') !== 'england') return 'not_covered';
  if ((p.tenure ?? 'private_rented') === 'social') return 'social';
  return p.privateRentedPolicy ? 'private_rented_policy' : 'not_covered';
}

/** What a scope means, for people (the hazard page and the evidence pack). */
export const SCOPE_TEXT: Record<HazardScope, string> = {
  social: 'Social housing in England: the Hazards in Social Housing (Prescribed Requirements) (England) Regulations 2025 (SI 2025/1042, in force 27 October 2025) apply',
  private_rented_policy:
    "Private rented in England: the agency applies the timescales of SI 2025/1042 as its policy (the power in section 60 of the Renters' Rights Act 2025 to extend them to private renting is not yet in force)",
  not_covered: 'Not covered: SI 2025/1042 applies to social housing in England only; no statutory clocks',
};
