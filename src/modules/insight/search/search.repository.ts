/**
 * SQL of the global search (docs/insight.md "Search"): PostgreSQL full text (GIN over
 * to_tsvector('english', reference || title || description)) and pg_trgm (word similarity for
 * typos, LIKE over the space-less postcode) on the indexes of migration 0700. The caller's
 * visibility applies before ranking and counting.
 */
import { sql, type RawBuilder } from 'kysely';
import type { DbOrTrx } from '../../../db/types.ts';
import { visibleTo, type JobScope } from '../../jobs/jobs/index.ts';
import { moneyVisible, type MoneyScope } from '../../money/money/index.ts';

/** The normalised query: text as typed, its space-less lower-case form (postcodes, references). */
export interface SearchTerms {
  q: string;
  compact: string;
  limit: number;
}

/**
 * A row of any type before the wire shape: id, rank 0..2, the text fields to show, and `fields`:
 * the searched fields as [label, text] pairs in the order the snippet looks for a match
 * (docs/insight.md "Search", "Snippets").
 */
export interface RawHit {
  uuid: string;
  score: number;
  title: string;
  subtitle: string | null;
  body: string | null;
  fields: Array<[string, string | null]>;
  total: number;
}

/** The searched fields of a hit as a JSON array of [label, text] pairs (RawHit.fields). */
function fieldsOf(pairs: Array<[string, RawBuilder<unknown>]>): RawBuilder<Array<[string, string | null]>> {
  return sql<Array<[string, string | null]>>`json_build_array(${sql.join(pairs.map(([label, text]) => sql`json_build_array(${label}::text, (${text})::text)`))})`;
}
/**
 * The whole address of alias `a` as one line: flat, building name, lines and town (for matching and
 * snippets). The IMMUTABLE function of migration 2026_12_06_1900 (concat_ws with ', '), called as
 * its trigram index is built, so `<%` and ILIKE on it are answered from addresses_text_trgm.
 */
const ADDRESS_TEXT = (alias: string) => sql<string>`caretaker_address_text(${sql.join(['sub_building', 'building_name', 'line1', 'line2', 'line3', 'town'].map((c) => sql.ref(`${alias}.${c}`)))})`;

/** A building's name, number, street, locality and town as one line (buildings_text_trgm's expression, migration 2026_12_06_1900). */
const BUILDING_TEXT = sql<string>`caretaker_building_text(bd.building_name, bd.building_number, bd.street, bd.locality, bd.town)`;

/** The stored generated tsvector of reference, title and description (migration 0700). */
const JOB_DOC = sql`j.search_vector`;
const POSTCODE = (alias: string) => sql`replace(lower(${sql.ref(`${alias}.postcode`)}), ' ', '')`;
const like = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** True when the query is shaped like a whole job reference ("JOB-0054321"): an exact match on the reference index. */
export function isWholeReference(q: string): boolean {
  return /^[a-z]{1,8}-[0-9]{2,}$/i.test(q);
}

/**
 * The match condition over alias `j`: full text, reference (trigram LIKE) and the postcode of the
 * job's address (`address_id = any(array(...))`, an indexable form), and with `fuzzy` titles
 * within pg_trgm's word similarity (typos). All are OR-ed on jobs itself so that PostgreSQL can
 * AND the index bitmaps with the visibility index (agency or branch) before reading any row. A
 * query shaped like a whole reference ("JOB-0054321") is an exact match on the reference index:
 * full text would match every job through the word "job", and trigrams of "job-" are everywhere.
 */
function jobMatch(t: SearchTerms, fuzzy: boolean): RawBuilder<boolean> {
  const parts: RawBuilder<unknown>[] = [];
  if (isWholeReference(t.q)) return sql<boolean>`j.reference = ${t.q.toUpperCase()}`;
  parts.push(sql`${JOB_DOC} @@ websearch_to_tsquery('english', ${t.q})`);
  if (t.compact.length >= 3) {
    parts.push(sql`lower(j.reference) like ${like(t.compact)}`);
    parts.push(sql`j.address_id = any(array(select a2.id from addresses a2 where ${POSTCODE('a2')} like ${like(t.compact)}))`);
  }
  if (fuzzy) parts.push(sql`${t.q} <% j.title`);
  if (parts.length === 0) return sql<boolean>`false`;
  return sql<boolean>`(${sql.join(parts, sql` or `)})`;
}

/**
 * How many matching jobs are ranked at most: the newest this many (docs/insight.md "Search"). A
 * word in nearly every job ("boiler" in a heating firm's agency) would otherwise rank every job
 * the agency has on each search; with the cap the newest matches are found by walking the
 * agency's newest jobs (PostgreSQL picks that walk when its statistics say the word is common,
 * the full-text index when it is rare). Must exceed the deepest page (offset 1,000 + limit 50).
 */
export const SEARCH_JOB_CANDIDATES = 2_000;

/**
 * Jobs the scope may open matching the terms, best first, with the number of such jobs (`total`:
 * at most SEARCH_JOB_CANDIDATES + 1, above the cap the count is not exact). Only the newest
 * SEARCH_JOB_CANDIDATES + 1 matches are ranked.
 */
export async function searchJobs(db: DbOrTrx, scope: JobScope, t: SearchTerms, fuzzy: boolean): Promise<RawHit[]> {
  return db
    .with('m', (qb) =>
      qb
        .selectFrom('jobs as j')
        .where('j.deleted_at', 'is', null)
        .where((eb) => visibleTo(eb, scope))
        .where(jobMatch(t, fuzzy))
        .select('j.id')
        .orderBy('j.created_at', 'desc')
        .orderBy('j.id', 'desc')
        .limit(SEARCH_JOB_CANDIDATES + 1))
    .selectFrom('m')
    .innerJoin('jobs as j', 'j.id', 'm.id')
    .innerJoin('job_statuses as s', 's.id', 'j.status_id')
    .leftJoin('addresses as a', 'a.id', 'j.address_id')
    .select([
      'j.uuid',
      sql<number>`greatest(
        case when lower(j.reference) = ${t.compact} then 2 else 0 end,
        case when lower(j.title) = lower(${t.q}) then 1.8 else 0 end,
        least(ts_rank(${JOB_DOC}, websearch_to_tsquery('english', ${t.q})) * 10, 1),
        word_similarity(${t.q}, j.title),
        case when ${POSTCODE('a')} = ${t.compact} then 1.5 when ${POSTCODE('a')} like ${like(t.compact)} then 0.8 else 0 end
      )::float8`.as('score'),
      sql<string>`j.reference || ' ' || j.title`.as('title'),
      sql<string>`s.name || coalesce(' · ' || a.line1 || ', ' || a.town || ' ' || a.postcode, '')`.as('subtitle'),
      'j.description as body',
      fieldsOf([['Reference', sql`j.reference`], ['Title', sql`j.title`], ['Postcode', sql`a.postcode`], ['Address', sql`a.line1 || ', ' || a.town`], ['Description', sql`j.description`]]).as('fields'),
      sql<number>`(count(*) over ())::int`.as('total'),
    ])
    .orderBy('score', 'desc')
    .orderBy('j.id', 'desc')
    .limit(t.limit)
    .execute();
}

/**
 * Live tenants of the agency (null: every agency) by name (typos), e-mail, or the postcode of an
 * address they live at (with or without its space; exact 1.5, part 0.8, as addresses rank).
 */
export async function searchTenants(db: DbOrTrx, agencyId: number | null, t: SearchTerms): Promise<RawHit[]> {
  const homes = sql`(select string_agg(a.line1 || ', ' || a.town || ' ' || a.postcode, '; ' order by a.id) from tenant_addresses ta join addresses a on a.id = ta.address_id where ta.tenant_id = te.id)`;
  const atPostcode = t.compact.length >= 3
    ? sql<boolean>`te.id = any(array(select ta.tenant_id from tenant_addresses ta join addresses a2 on a2.id = ta.address_id where ${POSTCODE('a2')} like ${like(t.compact)}))`
    : sql<boolean>`false`;
  const exactPostcode = sql<boolean>`exists (select 1 from tenant_addresses ta join addresses a3 on a3.id = ta.address_id where ta.tenant_id = te.id and ${POSTCODE('a3')} = ${t.compact})`;
  let q = db
    .selectFrom('tenants as te')
    .where('te.erased_at', 'is', null)
    .where(sql<boolean>`(${t.q} <% te.name or te.email ilike ${like(t.q)} or ${atPostcode})`);
  if (agencyId !== null) q = q.where('te.agency_id', '=', agencyId);
  return q
    .select([
      'te.uuid',
      sql<number>`greatest(word_similarity(${t.q}, te.name), case when te.email ilike ${like(t.q)} then 0.9 else 0 end,
        case when ${exactPostcode} then 1.5 when ${atPostcode} then 0.8 else 0 end)::float8`.as('score'),
      'te.name as title',
      'te.email as subtitle',
      sql<string | null>`te.phone`.as('body'),
      fieldsOf([['Name', sql`te.name`], ['Email', sql`te.email`], ['Lives at', homes]]).as('fields'),
      sql<number>`(count(*) over ())::int`.as('total'),
    ])
    .orderBy('score', 'desc')
    .orderBy('te.id', 'desc')
    .limit(t.limit)
    .execute();
}

/**
 * Addresses of the agency by postcode (with or without its space) or their whole address: lines,
 * building name and flat ("Flat 3 Aire Court"; typos, or the words as typed).
 */
export async function searchAddresses(db: DbOrTrx, agencyId: number | null, t: SearchTerms): Promise<RawHit[]> {
  const text = ADDRESS_TEXT('a');
  const byText = sql<boolean>`(${t.q} <% ${text} or ${text} ilike ${like(t.q)})`;
  let q = db
    .selectFrom('addresses as a')
    .where(t.compact.length >= 3
      ? sql<boolean>`(${POSTCODE('a')} like ${like(t.compact)} or ${byText})`
      : byText);
  if (agencyId !== null) q = q.where('a.agency_id', '=', agencyId);
  return q
    .select([
      'a.uuid',
      sql<number>`greatest(
        case when ${POSTCODE('a')} = ${t.compact} then 1.5 when ${POSTCODE('a')} like ${like(t.compact)} then 0.8 else 0 end,
        case when ${text} ilike ${like(t.q)} then 1 else 0 end,
        word_similarity(${t.q}, ${text}))::float8`.as('score'),
      sql<string>`a.line1 || ', ' || a.town`.as('title'),
      'a.postcode as subtitle',
      sql<string | null>`a.line2`.as('body'),
      fieldsOf([['Postcode', sql`a.postcode`], ['Flat', sql`a.sub_building`], ['Building', sql`a.building_name`], ['Address', sql`concat_ws(', ', a.line1, a.line2, a.line3, a.town)`]]).as('fields'),
      sql<number>`(count(*) over ())::int`.as('total'),
    ])
    .orderBy('score', 'desc')
    .orderBy('a.id', 'desc')
    .limit(t.limit)
    .execute();
}

/** Buildings (blocks of flats) of the agency by building name, number and street (typos, or as typed) or postcode. */
export async function searchBuildings(db: DbOrTrx, agencyId: number | null, t: SearchTerms): Promise<RawHit[]> {
  const text = BUILDING_TEXT;
  const byText = sql<boolean>`(${t.q} <% ${text} or ${text} ilike ${like(t.q)})`;
  let q = db
    .selectFrom('buildings as bd')
    .where(t.compact.length >= 3 ? sql<boolean>`(${POSTCODE('bd')} like ${like(t.compact)} or ${byText})` : byText);
  if (agencyId !== null) q = q.where('bd.agency_id', '=', agencyId);
  return q
    .select([
      'bd.uuid',
      sql<number>`greatest(
        case when ${POSTCODE('bd')} = ${t.compact} then 1.5 when ${POSTCODE('bd')} like ${like(t.compact)} then 0.8 else 0 end,
        case when lower(bd.building_name) = lower(${t.q}) then 1.2 when ${text} ilike ${like(t.q)} then 1 else 0 end,
        word_similarity(${t.q}, ${text}))::float8`.as('score'),
      sql<string>`coalesce(bd.building_name, concat_ws(' ', bd.building_number, bd.street)) || ', ' || bd.town`.as('title'),
      'bd.postcode as subtitle',
      sql<string | null>`(select count(*)::int from addresses u where u.building_id = bd.id) || ' units'`.as('body'),
      fieldsOf([['Building', sql`bd.building_name`], ['Postcode', sql`bd.postcode`], ['Street', sql`concat_ws(' ', bd.building_number, bd.street)`], ['Address', text]]).as('fields'),
      sql<number>`(count(*) over ())::int`.as('total'),
    ])
    .orderBy('score', 'desc')
    .orderBy('bd.id', 'desc')
    .limit(t.limit)
    .execute();
}

/** Landlords of the agency (not erased) by name (typos) or e-mail. */
export async function searchLandlords(db: DbOrTrx, agencyId: number | null, t: SearchTerms): Promise<RawHit[]> {
  let q = db
    .selectFrom('landlords as l')
    .where('l.erased_at', 'is', null)
    .where(sql<boolean>`(${t.q} <% l.name or l.email ilike ${like(t.q)})`);
  if (agencyId !== null) q = q.where('l.agency_id', '=', agencyId);
  return q
    .select([
      'l.uuid',
      sql<number>`greatest(word_similarity(${t.q}, l.name), case when lower(l.name) = lower(${t.q}) then 1.2 else 0 end,
        case when l.email ilike ${like(t.q)} then 0.9 else 0 end)::float8`.as('score'),
      'l.name as title',
      sql<string | null>`case l.kind when 'company' then 'Company landlord' else 'Landlord' end`.as('subtitle'),
      'l.email as body',
      fieldsOf([['Name', sql`l.name`], ['Email', sql`l.email`]]).as('fields'),
      sql<number>`(count(*) over ())::int`.as('total'),
    ])
    .orderBy('score', 'desc')
    .orderBy('l.id', 'desc')
    .limit(t.limit)
    .execute();
}

/** Contractors of the agency by company name (typos) or e-mail. */
export async function searchContractors(db: DbOrTrx, agencyId: number | null, t: SearchTerms): Promise<RawHit[]> {
  let q = db.selectFrom('contractors as c').where(sql<boolean>`(${t.q} <% c.company_name or c.email ilike ${like(t.q)})`);
  if (agencyId !== null) q = q.where('c.agency_id', '=', agencyId);
  return q
    .select([
      'c.uuid',
      sql<number>`greatest(word_similarity(${t.q}, c.company_name), case when c.email ilike ${like(t.q)} then 0.9 else 0 end)::float8`.as('score'),
      'c.company_name as title',
      'c.contact_name as subtitle',
      'c.email as body',
      fieldsOf([['Company', sql`c.company_name`], ['Email', sql`c.email`], ['Contact', sql`c.contact_name`]]).as('fields'),
      sql<number>`(count(*) over ())::int`.as('total'),
    ])
    .orderBy('score', 'desc')
    .orderBy('c.id', 'desc')
    .limit(t.limit)
    .execute();
}

/** Users of the agency by name (typos) or e-mail. */
export async function searchUsers(db: DbOrTrx, agencyId: number | null, t: SearchTerms): Promise<RawHit[]> {
  let q = db
    .selectFrom('users as u')
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .where(sql<boolean>`(${t.q} <% u.name or u.email ilike ${like(t.q)})`);
  if (agencyId !== null) q = q.where('u.agency_id', '=', agencyId);
  return q
    .select([
      'u.uuid',
      sql<number>`greatest(word_similarity(${t.q}, u.name), case when u.email ilike ${like(t.q)} then 0.9 else 0 end)::float8`.as('score'),
      'u.name as title',
      'u.email as subtitle',
      sql<string | null>`r.name`.as('body'),
      fieldsOf([['Name', sql`u.name`], ['Email', sql`u.email`]]).as('fields'),
      sql<number>`(count(*) over ())::int`.as('total'),
    ])
    .orderBy('score', 'desc')
    .orderBy('u.id', 'desc')
    .limit(t.limit)
    .execute();
}

/**
 * An invoice or credit note number as typed: `INV-000008`, `inv 8`, `CN-000001`, or digits alone
 * (either kind). Null when the query is not a number (the prefix alone, `INV`, is not one: it
 * lists the numbered invoices, see searchInvoices).
 */
export function invoiceNumberQuery(q: string): { kind: 'invoice' | 'credit_note' | null; number: number } | null {
  if (/^(inv|cn)[- ]?$/i.test(q.trim())) return null;
  const m = /^(inv|cn)?[- ]?0*([0-9]{1,9})$/i.exec(q.trim());
  if (!m || Number(m[2]) === 0) return null;
  const kind = m[1] === undefined ? null : m[1].toLowerCase() === 'cn' ? 'credit_note' : 'invoice';
  return { kind, number: Number(m[2]) };
}

const INVOICE_LABEL = sql<string>`case when i.number is null then 'Draft ' || replace(i.kind, '_', ' ')
  else (case i.kind when 'credit_note' then 'CN-' else 'INV-' end) || lpad(i.number::text, 6, '0') end`;

/**
 * Invoices and credit notes the money scope may open, by number (exact; the prefix alone, `INV` or
 * `CN`, finds every numbered one of that kind, newest first), the contractor's own
 * reference (trigram LIKE), the job's reference (a whole reference, exact), the contractor's name
 * (typos) or the job's address (postcode with or without its space, first line with typos).
 * Each condition is an indexable form (number: the (agency, kind, number) unique index; names and
 * addresses: `= any(array(...))` over their trigram indexes).
 */
export async function searchInvoices(db: DbOrTrx, scope: MoneyScope, t: SearchTerms): Promise<RawHit[]> {
  const parts: RawBuilder<unknown>[] = [];
  // The number's prefix alone ("INV", "CN-"): every numbered invoice (or credit note), newest first.
  const prefix = /^(inv|cn)[- ]?$/i.exec(t.q.trim());
  if (prefix) parts.push(sql`(i.number is not null and i.kind = ${prefix[1]!.toLowerCase() === 'cn' ? 'credit_note' : 'invoice'})`);
  const num = invoiceNumberQuery(t.q);
  const numberHit = num ? sql`(i.number = ${num.number}${num.kind ? sql` and i.kind = ${num.kind}` : sql``})` : sql`false`;
  if (num) parts.push(numberHit);
  const wholeReference = /^[a-z]{1,8}-[0-9]{2,}$/i.test(t.q);
  if (wholeReference) parts.push(sql`j.reference = ${t.q.toUpperCase()}`);
  if (t.compact.length >= 3) {
    parts.push(sql`lower(i.contractor_reference) like ${like(t.compact)}`);
    parts.push(sql`j.address_id = any(array(select a2.id from addresses a2 where ${POSTCODE('a2')} like ${like(t.compact)}))`);
  }
  parts.push(sql`i.contractor_id = any(array(select c2.id from contractors c2 where ${t.q} <% c2.company_name))`);
  parts.push(sql`j.address_id = any(array(select a3.id from addresses a3 where ${t.q} <% a3.line1))`);
  let q = db
    .selectFrom('invoices as i')
    .innerJoin('jobs as j', 'j.id', 'i.job_id')
    .innerJoin('contractors as c', 'c.id', 'i.contractor_id')
    .leftJoin('addresses as a', 'a.id', 'j.address_id')
    .where((eb) => moneyVisible(eb, scope, 'i'))
    .where(sql<boolean>`(${sql.join(parts, sql` or `)})`);
  if (scope.kind === 'agency' || scope.kind === 'branch') q = q.where('i.agency_id', '=', scope.agencyId);
  return q
    .select([
      'i.uuid',
      sql<number>`greatest(
        ${prefix ? sql`0.5` : sql`0`},
        case when ${numberHit} then 2 else 0 end,
        case when ${wholeReference ? sql`j.reference = ${t.q.toUpperCase()}` : sql`false`} then 1.2 else 0 end,
        case when lower(i.contractor_reference) = ${t.compact} then 1.5
          when ${t.compact.length >= 3 ? sql`lower(i.contractor_reference) like ${like(t.compact)}` : sql`false`} then 0.8 else 0 end,
        case when ${POSTCODE('a')} = ${t.compact} then 1.5 when ${t.compact.length >= 3 ? sql`${POSTCODE('a')} like ${like(t.compact)}` : sql`false`} then 0.8 else 0 end,
        word_similarity(${t.q}, c.company_name),
        coalesce(word_similarity(${t.q}, a.line1), 0)
      )::float8`.as('score'),
      sql<string>`${INVOICE_LABEL} || ' ' || c.company_name`.as('title'),
      sql<string>`initcap(replace(i.status, '_', ' ')) || ' · ' || j.reference || coalesce(' · ' || a.line1 || ', ' || a.town || ' ' || a.postcode, '')`.as('subtitle'),
      sql<string | null>`'Contractor reference ' || i.contractor_reference`.as('body'),
      fieldsOf([['Number', INVOICE_LABEL], ['Contractor reference', sql`i.contractor_reference`], ['Job', sql`j.reference`], ['Contractor', sql`c.company_name`],
        ['Postcode', sql`a.postcode`], ['Address', sql`a.line1 || ', ' || a.town`]]).as('fields'),
      sql<number>`(count(*) over ())::int`.as('total'),
    ])
    .orderBy('score', 'desc')
    .orderBy('i.id', 'desc')
    .limit(t.limit)
    .execute();
}
