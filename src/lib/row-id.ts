/**
 * Ids typed as text (docs/security.md "Bad input"): a field that takes a row id or a code, such
 * as `role`, turns digits into an id only within the PostgreSQL `integer` range of the id columns,
 * so an over-range digit string matches nothing (a 400 or an empty list) and never reaches SQL.
 */

/** Largest value of a PostgreSQL `integer` (the id columns). */
export const ROW_ID_MAX = 2_147_483_647;

/**
 * The row id a digit string names.
 * @param text any string
 * @returns the id (1 to ROW_ID_MAX), null when `text` is not all digits (a code, say), or
 *   undefined for digits that no row can have (0, or beyond the integer range)
 */
export function rowIdFromDigits(text: string): number | null | undefined {
  if (!/^\d+$/.test(text)) return null;
  const id = Number(text);
  return Number.isSafeInteger(id) && id >= 1 && id <= ROW_ID_MAX ? id : undefined;
}
