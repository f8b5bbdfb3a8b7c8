/**
 * Global search results (GET /api/search, docs/insight.md): the console page each hit opens, and
 * the hit's snippet split into plain and highlighted parts so it is rendered as text, never as
 * HTML.
 */

/** The record types the search returns, with the label shown beside each hit. */
export const SEARCH_TYPES = {
  job: 'Job', tenant: 'Tenant', address: 'Address', building: 'Building', landlord: 'Landlord', contractor: 'Contractor', user: 'User', invoice: 'Invoice',
} as const;
export type SearchType = keyof typeof SEARCH_TYPES;

/**
 * The console page of a hit: a job, a property (address) and a landlord open their own pages;
 * tenants and users open their list searched for the hit's title; a building the address list
 * searched for its name (its flats); contractors their list; invoices the invoice list. Null when
 * the caller has no such page (a missing permission, or an unknown type).
 */
export function consolePathOf(hit: { type: string; uuid: string; title: string }, permissions: Set<string>): string | null {
  const q = encodeURIComponent(hit.title);
  switch (hit.type) {
    case 'job':
      return `/jobs/${hit.uuid}`;
    case 'tenant':
      return permissions.has('api.tenants.view') ? `/tenants?q=${q}` : null;
    case 'address':
      return permissions.has('api.addresses.view') ? `/properties/${hit.uuid}` : null;
    case 'building':
      // The title is "Aire Court, Leeds": its name finds the block's flats.
      return permissions.has('api.addresses.view') ? `/addresses?q=${encodeURIComponent(hit.title.split(',')[0]!.trim())}` : null;
    case 'landlord':
      return permissions.has('api.landlords.view') ? `/landlords/${hit.uuid}` : null;
    case 'user':
      return permissions.has('api.users.manage') ? `/users?q=${q}` : null;
    case 'contractor':
      return permissions.has('api.contractors.view') ? '/contractors' : null;
    case 'invoice':
      return permissions.has('api.invoices.view') ? '/invoices' : null;
    default:
      return null;
  }
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&#x27;': "'" };

/** Turns the API's HTML-escaped snippet with <mark>…</mark> into parts: `{ text, mark }`, text unescaped. */
export function snippetParts(snippet: string): Array<{ text: string; mark: boolean }> {
  const unescape = (s: string) => s.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (e) => ENTITIES[e] ?? e);
  const parts: Array<{ text: string; mark: boolean }> = [];
  const re = /<mark>(.*?)<\/mark>/gs;
  let at = 0;
  for (let m = re.exec(snippet); m; m = re.exec(snippet)) {
    if (m.index > at) parts.push({ text: unescape(snippet.slice(at, m.index)), mark: false });
    parts.push({ text: unescape(m[1]!), mark: true });
    at = m.index + m[0].length;
  }
  if (at < snippet.length) parts.push({ text: unescape(snippet.slice(at)), mark: false });
  return parts;
}
