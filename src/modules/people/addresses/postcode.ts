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

/**
 * Normalises a UK postcode: upper case, exactly one space before the inward code.
 * @param input any spacing and case, e.g. "ls63hn" or " LS6  3hn "
 * @returns "LS6 3HN", or null when the input is not a valid UK postcode
 */
export function normalisePostcode(input: string): string | null {
  const compact = input.toUpperCase().replace(/\s+/g, '');
  if (compact.length < 5 || compact.length > 7) return null;
  const formatted = `${compact.slice(0, -3)} ${compact.slice(-3)}`;
  if (formatted === 'GIR 0AA') return formatted;
  return POSTCODE_RE.test(formatted) ? formatted : null;
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
