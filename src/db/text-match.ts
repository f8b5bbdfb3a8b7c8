/**
 * LIKE patterns from user text, for the list filters (`q`, postcode prefixes) of every module
 * (docs/api.md, list filters). The user's `%`, `_` and `\` are matched literally.
 */

/** Escapes `\`, `%` and `_` so that `value` matches literally inside a LIKE pattern. */
export function likeEscape(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * A LIKE pattern matching `text` anywhere (`%text%`), wildcards escaped.
 * @param options.lowerCase lower-case the text too, for a comparison against `lower(column)`
 */
export function containsPattern(text: string, options: { lowerCase?: boolean } = {}): string {
  return `%${likeEscape(options.lowerCase ? text.toLowerCase() : text)}%`;
}
