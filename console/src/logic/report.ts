/** The repair report's text: the spec has no access-notes field, so they travel in the description. */

/** The description sent: what the tenant wrote, then the access notes on their own line. */
export function composeDescription(description: string, access: string): string {
  const d = description.trim();
  const a = access.trim();
  return a ? `${d}${d ? '\n\n' : ''}Access: ${a}` : d;
}

/**
 * The new-job form's branch select (docs/console.md "New job"): the empty choice ("the property's
 * branch", the API then takes the property's) and each open branch once, by uuid. The empty
 * choice is never labelled with a branch's name: with one branch it was, and that branch was
 * listed twice ("Leeds City", "Leeds City").
 * @param branches the agency's branches (closed ones, `closed_at` set, are left out; a branch
 *   listed twice by the caller is shown once)
 * @param propertyBranch the chosen property's branch name, or null
 */
export function branchChoices(
  branches: ReadonlyArray<{ uuid: string; name: string; closed_at?: string | null }>,
  propertyBranch: string | null,
): { empty: string; options: Array<{ uuid: string; name: string }> } {
  const seen = new Set<string>();
  const options = branches
    .filter((b) => !b.closed_at && !seen.has(b.uuid) && seen.add(b.uuid))
    .map((b) => ({ uuid: b.uuid, name: b.name }));
  return { empty: propertyBranch ? `The property’s branch (${propertyBranch})` : 'The property’s branch', options };
}

/**
 * The new-job form's tenant choice for a property (docs/console.md "New job"): its one tenant is
 * chosen for the user; with several (a shared house) none is, and the empty choice asks who
 * reported the repair; with none the empty choice says so.
 * @param tenants the tenants linked to the property (GET /api/tenants?address_uuid=)
 * @returns the uuid to preselect ('' for none), the empty option's label and the hint
 */
export function tenantChoice(tenants: ReadonlyArray<{ uuid: string }>): { selected: string; empty: string; hint: string } {
  if (tenants.length === 1) return { selected: tenants[0]!.uuid, empty: 'No tenant (empty or common parts)', hint: 'The tenant linked to the property.' };
  if (tenants.length === 0) return { selected: '', empty: 'No tenant (empty or common parts)', hint: 'No tenant is linked to this property.' };
  return { selected: '', empty: 'Choose the tenant who reported it', hint: `${tenants.length} tenants live here: choose who reported the repair (or none for common parts).` };
}
