/**
 * UK postcodes (docs/tenants.md): validation and normalisation of full postcodes ("ls6 3hn" ->
 * "LS6 3HN") and of outward codes, the postcode districts contractors cover ("ls6" -> "LS6").
 * Pure functions; the format is the Royal Mail one (outward code 2-4 characters, inward code a
 * digit and two letters), including the special GIR 0AA.
 */

const OUTWARD = '(?:GIR|[A-PR-UWYZ](?:[0-9]{1,2}|[A-HK-Y][0-9][0-9ABEHMNPRV-Y]?|[0-9][A-HJKPS-UW]|[A-HK-Y][0-9]))';
const INWARD = '[0-9][ABD-HJLNP-UW-Z]{2}';
const POSTCODE_RE = new RegExp(`^${OUTWARD} ${INWARD}$`);
const OUTWARD_RE = new RegExp(`^${OUTWARD}$`);
const INWARD_RE = new RegExp(`^${INWARD}$`);

/**
 * Why `input` is not a UK postcode, or null when it is one (checkPostcode's reason).
 * The postcode is checked, never rewritten: only case and spacing are normalised. A space the
 * writer put in must stand before the inward code (the last three characters), so "LS6 12AB" is
 * refused rather than read as "LS61 2AB".
 */
export function postcodeProblem(input: string): string | null {
  const parts = input.trim().toUpperCase().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return 'missing';
  if (parts.length > 2) return 'a UK postcode has at most one space, before its last three characters';
  if (parts.length === 2 && parts[1]!.length !== 3) return 'the part after the space (the inward code) must be a digit and two letters, such as 3HN';
  const compact = parts.join('');
  if (compact.length < 5 || compact.length > 7) return 'a UK postcode has 5 to 7 letters and digits, such as LS6 3HN';
  const formatted = `${compact.slice(0, -3)} ${compact.slice(-3)}`;
  if (formatted === 'GIR 0AA' || POSTCODE_RE.test(formatted)) return null;
  if (!INWARD_RE.test(compact.slice(-3))) return 'the inward code (the last three characters) must be a digit and two letters, such as 3HN';
  return 'the outward code (before the space) is not a UK postcode district, such as LS6 or SW1A';
}

/**
 * Normalises a UK postcode: upper case, exactly one space before the inward code; never moves a
 * space the writer put in (postcodeProblem).
 * @param input any case, with or without its one space, e.g. "ls63hn" or " LS6  3hn "
 * @returns "LS6 3HN", or null when the input is not a valid UK postcode
 */
export function normalisePostcode(input: string): string | null {
  if (postcodeProblem(input) !== null) return null;
  const compact = input.toUpperCase().replace(/\s+/g, '');
  return `${compact.slice(0, -3)} ${compact.slice(-3)}`;
}

/**
 * Normalises a postcode district (outward code): "ls6" -> "LS6", "yo1" -> "YO1".
 * @returns the district in upper case, or null when it is not a valid outward code
 */
export function normaliseDistrict(input: string): string | null {
  const compact = input.toUpperCase().replace(/\s+/g, '');
  return OUTWARD_RE.test(compact) ? compact : null;
}

/** The district (outward code) of a normalised postcode: "LS6 3HN" -> "LS6"; null for null. */
export function districtOf(postcode: string | null | undefined): string | null {
  if (!postcode) return null;
  const normal = normalisePostcode(postcode);
  return normal ? normal.split(' ')[0]! : null;
}

/** A postcode search prefix without spaces, upper case ("ls6 3" -> "LS63"), for prefix matching. */
export function postcodePrefix(input: string): string {
  return input.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/**
 * Natural order of postcode districts (outward codes): by area letters, then district number as a
 * number, then the sub-district letter, so LS7 comes before LS17 and SW1 before SW1A before SW2.
 * @returns negative, zero or positive, as Array.prototype.sort expects
 */
export function compareDistricts(a: string, b: string): number {
  const parse = (d: string) => {
    const m = /^([A-Z]+)(\d*)([A-Z]?)$/.exec(d.toUpperCase());
    return m ? { area: m[1]!, n: m[2] === '' ? -1 : Number(m[2]), sub: m[3]! } : { area: d.toUpperCase(), n: -1, sub: '' };
  };
  const x = parse(a);
  const y = parse(b);
  return x.area < y.area ? -1 : x.area > y.area ? 1 : x.n !== y.n ? x.n - y.n : x.sub < y.sub ? -1 : x.sub > y.sub ? 1 : 0;
}
