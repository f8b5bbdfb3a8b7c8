/**
 * Where a page for people without an account is served (docs/api.md "People's links"): at its API
 * path, described by the OpenAPI document, and at the same path without `/api`, the address the
 * messages give (a message to a tenant, landlord or contractor names no API path), hidden from the
 * document.
 */

/**
 * @param apiPath the route's API path, e.g. `/api/approvals/link/:token`
 * @returns [path, hide from the document] pairs: the API path, then the people's path
 */
export function peoplePaths(apiPath: string): ReadonlyArray<readonly [string, boolean]> {
  return [
    [apiPath, false],
    [apiPath.replace(/^\/api(?=\/)/, ''), true],
  ];
}
