/** The repair report's text: the spec has no access-notes field, so they travel in the description. */

/** The description sent: what the tenant wrote, then the access notes on their own line. */
export function composeDescription(description: string, access: string): string {
  const d = description.trim();
  const a = access.trim();
  return a ? `${d}${d ? '\n\n' : ''}Access: ${a}` : d;
}
