/**
 * Demo data of the security blacklist (docs/security.md "Blacklist"): two address entries made by
 * the demo SysOps account (a documentation range and a single address with an expiry) and one
 * automatic entry, so GET /api/security/blacklist shows real records. No demo account is blocked.
 */
import type { DemoContext } from './context.ts';
import { insertRows } from '../../db/seed.repository.ts';

/** Adds the blacklist entries. */
export async function securityStep(ctx: DemoContext): Promise<void> {
  const sysops = ctx.ids.users['sysops@caretaker.test'] ?? null;
  const at = (days: number) => new Date(ctx.now.getTime() + days * 86_400_000);
  const base = { user_id: null, agency_id: null, removed_at: null, removed_by_user_id: null };
  await insertRows(ctx.trx, 'security_blacklist', [
    { ...base, uuid: ctx.uuid(), kind: 'cidr', value: '203.0.113.0/24', reason: 'Demo: a range scanning the API', added_by_user_id: sysops, automatic: false, expires_at: null, created_at: at(-20) },
    { ...base, uuid: ctx.uuid(), kind: 'ip', value: '198.51.100.23', reason: 'Demo: credential stuffing from a hosting provider', added_by_user_id: sysops, automatic: false, expires_at: at(10), created_at: at(-2) },
    { ...base, uuid: ctx.uuid(), kind: 'ip', value: '2001:0db8:0000:0000:0000:0000:0000:0bad', reason: 'Automatic: tripped the login throttle 5 times', added_by_user_id: null, automatic: true, expires_at: at(1), created_at: at(-0.5) },
  ]);
  ctx.log('security: 3 blacklist entries');
}
