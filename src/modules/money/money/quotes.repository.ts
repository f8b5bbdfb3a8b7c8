/** SQL for quotes (docs/money.md "Quotes"). Scope rules come from access.ts. */
import { sql, type Insertable, type Updateable } from 'kysely';
import type { QuoteTable } from '../../../db/schema.ts';
import type { DbOrTrx } from '../../../db/types.ts';
import { moneyVisible, type MoneyScope } from './access.ts';

function quoteQuery(db: DbOrTrx, scope: MoneyScope) {
  return db.selectFrom('quotes as q')
    .innerJoin('jobs as j', 'j.id', 'q.job_id')
    .innerJoin('contractors as c', 'c.id', 'q.contractor_id')
    .where('j.deleted_at', 'is', null)
    .where((eb) => moneyVisible(eb, scope, 'q'))
    .select(['q.id', 'q.uuid', 'q.agency_id', 'q.job_id', 'j.uuid as job_uuid', 'j.reference as job_reference', 'q.contractor_id', 'c.uuid as contractor_uuid',
      'c.company_name as contractor_name', 'q.status', 'q.vat_registered', 'q.net_pence', 'q.vat_pence', 'q.gross_pence', 'q.notes',
      'q.decided_at', 'q.decision_reason', 'q.created_at']);
}
export type QuoteRow = NonNullable<Awaited<ReturnType<typeof findQuote>>>;

/** A quote in scope by uuid, optionally of one job. */
export function findQuote(db: DbOrTrx, scope: MoneyScope, uuid: string, jobId?: number) {
  let q = quoteQuery(db, scope).where('q.uuid', '=', uuid);
  if (jobId !== undefined) q = q.where('q.job_id', '=', jobId);
  return q.executeTakeFirst();
}

/** A page of the quotes of a job in scope, oldest first, and the total. */
export async function listQuotes(db: DbOrTrx, scope: MoneyScope, jobId: number, page: { limit: number; offset: number }) {
  const base = quoteQuery(db, scope).where('q.job_id', '=', jobId);
  const [rows, total] = await Promise.all([
    base.orderBy('q.id').limit(page.limit).offset(page.offset).execute(),
    base.clearSelect().select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}

/** Locks a quote row for a decision. */
export function lockQuote(trx: DbOrTrx, id: number) {
  return trx.selectFrom('quotes').select(['id', 'uuid', 'status', 'contractor_id', 'gross_pence', 'job_id']).where('id', '=', id).forUpdate().executeTakeFirstOrThrow();
}

/** Other submitted quotes of a job (to reject when one is approved), locked. */
export function otherSubmitted(trx: DbOrTrx, jobId: number, exceptId: number) {
  return trx.selectFrom('quotes').select(['id', 'uuid', 'contractor_id', 'gross_pence']).where('job_id', '=', jobId).where('id', '<>', exceptId)
    .where('status', '=', 'submitted').orderBy('id').forUpdate().execute();
}

/** True when the job already has an approved quote. */
export async function hasApproved(trx: DbOrTrx, jobId: number): Promise<boolean> {
  return (await trx.selectFrom('quotes').select('id').where('job_id', '=', jobId).where('status', '=', 'approved').executeTakeFirst()) !== undefined;
}

/** Inserts a quote; returns its id. */
export async function insertQuote(db: DbOrTrx, row: Insertable<QuoteTable>): Promise<number> {
  return (await db.insertInto('quotes').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

/** Updates a quote by id. */
export async function updateQuote(db: DbOrTrx, id: number, set: Updateable<QuoteTable>) {
  await db.updateTable('quotes').set(set).where('id', '=', id).execute();
}

/** Sets the agreed cost (pence) of a job. */
export async function setAgreedCost(db: DbOrTrx, jobId: number, pence: number, now: Date) {
  await db.updateTable('jobs').set({ agreed_cost_pence: pence, updated_at: now }).where('id', '=', jobId).execute();
}

/** Job columns money rules need. */
export function jobFacts(db: DbOrTrx, jobId: number) {
  return db.selectFrom('jobs').select(['id', 'uuid', 'reference', 'agency_id', 'branch_id', 'status_id', 'job_type_id', 'trade_id', 'contractor_id']).where('id', '=', jobId).executeTakeFirstOrThrow();
}
