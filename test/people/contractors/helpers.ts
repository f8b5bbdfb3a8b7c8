/** Small factories for the contractors and GDPR tests: a job row inserted directly. */
import type { Db } from '../../../src/db/database.ts';
import { insertJob as insertJobRow } from '../../helpers/factories.ts';

let n = 0;

/** Inserts a job of the branch; returns id and uuid. */
export async function insertJob(
  db: Db,
  input: { agencyId: number; branchId: number; addressId?: number | null; tenantId?: number | null; tradeCode?: string | null; statusId?: number; title?: string; description?: string; reportedBy?: number | null },
) {
  const now = new Date('2026-11-20T10:00:00Z');
  const trade = input.tradeCode ? await db.selectFrom('trades').select('id').where('code', '=', input.tradeCode).where('agency_id', 'is', null).executeTakeFirstOrThrow() : null;
  n += 1;
  return insertJobRow(
    db,
    {
      agency_id: input.agencyId,
      branch_id: input.branchId,
      reference: `T-${n}-${Math.random().toString(36).slice(2, 8)}`,
      title: input.title ?? 'Test job',
      description: input.description ?? '',
      status_id: input.statusId ?? 1,
      address_id: input.addressId ?? null,
      tenant_id: input.tenantId ?? null,
      trade_id: trade?.id ?? null,
      reported_by_user_id: input.reportedBy ?? null,
    },
    now,
  );
}

/** The id of a platform trade by code. */
export async function tradeId(db: Db, code: string): Promise<number> {
  return (await db.selectFrom('trades').select('id').where('code', '=', code).where('agency_id', 'is', null).executeTakeFirstOrThrow()).id;
}
