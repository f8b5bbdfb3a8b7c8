/**
 * A UK address in the parts Royal Mail's Postcode Address File (PAF) and BS 7666 name
 * (docs/tenants.md "Address parts"): sub-building (the flat or unit), building name, building
 * number, street (thoroughfare), locality (dependent locality), post town, postcode. The old
 * line fields (line1 to line3) stay beside them: lines are composed from the parts when only the
 * parts are given, and the parts read from the lines when only the lines are given. The identity
 * of an address (addressKey) is the whole address, not its first line. Pure functions.
 */

/** The PAF parts of an address below the post town; null for a part it has not. */
export interface AddressParts {
  sub_building: string | null;
  building_name: string | null;
  building_number: string | null;
  street: string | null;
  locality: string | null;
}

/** The part names, in PAF order. */
export const PART_NAMES = ['sub_building', 'building_name', 'building_number', 'street', 'locality'] as const;

/** A flat, unit or room: what PAF calls the sub-building ("Flat 3", "Apartment 12B", "Unit 4"). */
const SUB_BUILDING = /^(flat|apartment|apt\.?|unit|room|studio|suite|maisonette|penthouse|basement|(ground|first|second|third|top|lower ground) floor|communal)\b/i;
/** A building number and street: "21 The Calls", "12A Hyde Park Road", "3-5 Kirkgate". */
const NUMBERED = /^(\d+[A-Z]?(?:-\d+[A-Z]?)?)\s+(\S.*)$/i;

const blank = (s: string | null | undefined): string | null => {
  const t = (s ?? '').replace(/\s+/g, ' ').trim();
  return t === '' ? null : t;
};

/**
 * The parts read from the old address lines: each line split at its commas, then a sub-building
 * ("Flat 3"), a building number with its street ("21 The Calls"), a building name (the first
 * other text before the street), and whatever is left as the locality (joined with ", "), so no
 * text of the lines is lost.
 * @param lines line1, line2, line3 (null or empty for none)
 */
export function partsFromLines(lines: ReadonlyArray<string | null | undefined>): AddressParts {
  const parts: AddressParts = { sub_building: null, building_name: null, building_number: null, street: null, locality: null };
  const rest: string[] = [];
  const segments = lines.flatMap((l) => (l ?? '').split(',')).map(blank).filter((s): s is string => s !== null);
  for (const seg of segments) {
    const numbered = NUMBERED.exec(seg);
    if (!parts.sub_building && SUB_BUILDING.test(seg)) parts.sub_building = seg;
    else if (!parts.street && numbered) {
      parts.building_number = numbered[1]!.toUpperCase();
      parts.street = numbered[2]!;
    } else if (!parts.building_name && !parts.street && rest.length === 0) parts.building_name = seg;
    else rest.push(seg);
  }
  parts.locality = rest.length > 0 ? rest.join(', ') : null;
  return parts;
}

/**
 * The address lines composed from the parts, as Royal Mail prints them: the premises (sub-building,
 * building name) on one line, the building number and street on the next, the locality after.
 * @returns line1 (empty string when the parts are all empty), line2, line3
 */
export function linesFromParts(p: AddressParts): { line1: string; line2: string | null; line3: string | null } {
  const premises = [p.sub_building, p.building_name].map(blank).filter(Boolean).join(', ');
  const thoroughfare = [p.building_number, p.street].map(blank).filter(Boolean).join(' ');
  const lines = [premises, thoroughfare, blank(p.locality) ?? ''].filter((l) => l !== '');
  return { line1: lines[0] ?? '', line2: lines[1] ?? null, line3: lines[2] ?? null };
}

/** A part as compared: lower case, spacing collapsed, full stops, commas and apostrophes dropped. */
function norm(s: string | null | undefined): string {
  return (s ?? '').toLowerCase().replace(/[.,'’]/g, '').replace(/\s+/g, ' ').trim();
}

/**
 * The identity of an address inside its agency: every part and the postcode, compared without
 * case and punctuation. "Flat 3, 21 The Calls, LS1 7BN" and "Flat 7, 21 The Calls, LS1 7BN"
 * differ; "21 the calls / flat 3" and "Flat 3, 21 The Calls" are the same address.
 * @param postcode normalised (normalisePostcode)
 */
export function addressKey(p: AddressParts, postcode: string): string {
  return [...PART_NAMES.map((k) => norm(p[k])), postcode.toUpperCase()].join('|');
}

/** The identity of a building (its parts without the sub-building) and postcode. */
export function buildingKey(p: Omit<AddressParts, 'sub_building'>, postcode: string): string {
  return addressKey({ ...p, sub_building: null }, postcode);
}

/**
 * Whether a unit's parts name this building: every building part the unit gives (name, number,
 * street) equals the building's, compared as addressKey does; a unit that gives neither a
 * building name nor a street names no building. "Flat 13, 21 The Calls" is a flat of "Aire Court,
 * 21 The Calls" at the same postcode.
 */
export function namesBuilding(unit: Omit<AddressParts, 'sub_building' | 'locality'>, building: Omit<AddressParts, 'sub_building' | 'locality'>): boolean {
  if (!unit.building_name && !unit.street) return false;
  return (['building_name', 'building_number', 'street'] as const).every((k) => !unit[k] || norm(unit[k]) === norm(building[k]));
}
