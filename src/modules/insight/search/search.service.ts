/**
 * Global search (docs/insight.md "Search"): one query over jobs, tenants, addresses, buildings,
 * landlords, contractors, users and invoices, each type searched only when the caller holds the permission that opens it
 * and only within what it may open (jobs: jobScope; invoices: the money scope; the rest: the
 * caller's agency, SysOps all). Hits are merged by rank; `count` is the number of visible matches
 * over the types searched.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { AuthContext } from '../../../core/auth-context.ts';
import { invalidParam } from '../../../core/errors.ts';
import { withCustomPlans } from '../../../db/custom-plans.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { jobScope } from '../../jobs/jobs/index.ts';
import { moneyScope } from '../../money/money/index.ts';
import { escapeHtml } from '../../../lib/html.ts';
import { excerpt, highlight } from './highlight.ts';
import * as repo from './search.repository.ts';
import type { SearchHitDto, SearchQueryInput, SearchType } from './search.schemas.ts';

/** One searchable type: who may search it, how, and where its record lives. */
export interface SearchProvider {
  permission: string;
  path: (uuid: string) => string;
  /** Searches on `db` (the read replica or the primary: search may lag, docs/operations.md "Read replicas"). */
  run(db: DbOrTrx, auth: AuthContext, terms: repo.SearchTerms): Promise<repo.RawHit[]>;
}

/**
 * Jobs in two phases: the exact indexes (full text, reference, postcode) first; the trigram typo
 * search over titles only when they do not fill the page, since a common word would otherwise
 * make every title sharing its trigrams a candidate. Words are searched in `withCustomPlans`
 * (src/db/custom-plans.ts).
 */
async function searchJobsTwoPhase(db: DbOrTrx, auth: AuthContext, t: repo.SearchTerms): Promise<repo.RawHit[]> {
  const phases = async (db: DbOrTrx) => {
    const exact = await repo.searchJobs(db, jobScope(auth), t, false);
    if (exact.length >= t.limit) return exact;
    return repo.searchJobs(db, jobScope(auth), t, true);
  };
  // A whole reference is one index lookup, whatever its value. Words are planned for the words
  // themselves: PostgreSQL then knows whether they are in most jobs or in few.
  return repo.isWholeReference(t.q) ? phases(db) : withCustomPlans(db, phases);
}

/**
 * The searchable types. Invoices (and credit notes) are searched within the money module's scope
 * (docs/money.md "Visibility": a contractor its own, tenants none).
 */
export const SEARCH_PROVIDERS: Partial<Record<SearchType, SearchProvider>> = {
  job: { permission: 'api.jobs.manage.manage', path: (u) => `/api/jobs/${u}`, run: searchJobsTwoPhase },
  tenant: { permission: 'api.tenants.view', path: (u) => `/api/tenants/${u}`, run: (db, a, t) => repo.searchTenants(db, a.agencyId, t) },
  address: { permission: 'api.addresses.view', path: (u) => `/api/addresses/${u}`, run: (db, a, t) => repo.searchAddresses(db, a.agencyId, t) },
  building: { permission: 'api.addresses.view', path: (u) => `/api/buildings/${u}`, run: (db, a, t) => repo.searchBuildings(db, a.agencyId, t) },
  landlord: { permission: 'api.landlords.view', path: (u) => `/api/landlords/${u}`, run: (db, a, t) => repo.searchLandlords(db, a.agencyId, t) },
  contractor: { permission: 'api.contractors.view', path: (u) => `/api/contractors/${u}`, run: (db, a, t) => repo.searchContractors(db, a.agencyId, t) },
  user: { permission: 'api.users.manage', path: (u) => `/api/users/${u}`, run: (db, a, t) => repo.searchUsers(db, a.agencyId, t) },
  invoice: { permission: 'api.invoices.view', path: (u) => `/api/invoices/${u}`, run: (db, a, t) => repo.searchInvoices(db, moneyScope(a), t) },
};

/**
 * The snippet of a hit (docs/insight.md "Search", "Snippets"): the first of its searched fields
 * (RawHit.fields, in their order) in which a word of q matches, as "Label: text", the text cut to
 * 140 characters around the match, HTML-escaped, the matching words in <mark>. A hit found only by
 * a looser rule (pg_trgm similarity beyond one typo) shows its first non-empty field unmarked.
 */
export function snippetOf(h: Pick<repo.RawHit, 'title' | 'fields'>, q: string): string {
  const fields = (h.fields ?? []).filter((f): f is [string, string] => typeof f[1] === 'string' && f[1].trim() !== '');
  for (const [label, text] of fields) {
    const m = highlight(excerpt(text, q), q);
    if (m.matched) return `${escapeHtml(label)}: ${m.html}`;
  }
  const first = fields[0];
  return first ? `${escapeHtml(first[0])}: ${highlight(excerpt(first[1], q), q).html}` : highlight(h.title, q).html;
}

/**
 * Searches for the caller.
 * @returns hits (one page, best first), the number of visible matches (`total`), and `capped`: true
 *   when more jobs matched than are ranked (SEARCH_JOB_CANDIDATES; `total` then counts that many)
 * @throws 400 naming q when it holds no letter or digit
 */
export async function search(deps: AppDeps, auth: AuthContext, input: SearchQueryInput) {
  const q = input.q.trim().replace(/\s+/g, ' ');
  if (!/[\p{L}\p{N}]/u.test(q)) throw invalidParam('q');
  // Search may lag: on the read replica when there is one (docs/operations.md "Read replicas").
  return deps.reads.mayLag(auth.userId, (db) => searchOn(db, auth, input, q));
}

/** The search of `search`, every type read from `db` (the replica or the primary); `q` is the trimmed query. */
async function searchOn(db: DbOrTrx, auth: AuthContext, input: SearchQueryInput, q: string) {
  // SysOps (no agency) search every agency; anyone else without one has nothing to search but jobs.
  const wanted = (input.types?.split(',') ?? Object.keys(SEARCH_PROVIDERS)) as SearchType[];
  const terms: repo.SearchTerms = { q, compact: q.toLowerCase().replace(/\s+/g, ''), limit: input.offset + input.limit };
  const staffWithoutAgency = auth.agencyId === null && auth.roleCode !== 'sysops';
  const runs = [...new Set(wanted)].flatMap((type) => {
    const p = SEARCH_PROVIDERS[type];
    if (!p || !auth.permissions.has(p.permission)) return [];
    if (type !== 'job' && staffWithoutAgency) return [];
    return [p.run(db, auth, terms).then((rows) => ({ type, p, rows }))];
  });
  const results = await Promise.all(runs);
  let total = 0;
  let capped = false;
  const hits: SearchHitDto[] = [];
  const position = new Map<SearchHitDto, number>();
  for (const { type, p, rows } of results) {
    const found = rows[0]?.total ?? 0;
    // Jobs: only the newest SEARCH_JOB_CANDIDATES matches are ranked and counted.
    if (type === 'job' && found > repo.SEARCH_JOB_CANDIDATES) capped = true;
    total += type === 'job' ? Math.min(found, repo.SEARCH_JOB_CANDIDATES) : found;
    rows.forEach((r, i) => {
      const hit: SearchHitDto = { type, uuid: r.uuid, title: r.title, subtitle: r.subtitle, snippet: snippetOf(r, q), score: Math.round(Number(r.score) * 1000) / 1000, url: p.path(r.uuid) };
      position.set(hit, i);
      hits.push(hit);
    });
  }
  // Equal scores keep each type's own order (newest first), so a new record is not lost among
  // older ones that match as well.
  hits.sort((a, b) => b.score - a.score || position.get(a)! - position.get(b)! || a.type.localeCompare(b.type));
  return { hits: hits.slice(input.offset, input.offset + input.limit), total, capped };
}
