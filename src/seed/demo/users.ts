/**
 * Demo step of the users area (docs/demo-data.md): more staff per branch (agents in Leeds,
 * York and London, a second Northwind admin), one disabled former agent, one invited account
 * waiting for its invitation (send it with POST /api/users/{uuid}/invite), and past sessions
 * (revoked or expired only, so no demo token is usable) for the session lists.
 */
import { hashToken, newUuid } from '../../lib/crypto.ts';
import { addSeconds, SECONDS } from '../../lib/clock.ts';
import type { DemoContext } from './context.ts';
import { insertId, insertRows, roleIdsByCode } from '../../db/seed.repository.ts';

interface StaffDef {
  email: string;
  name: string;
  role: 'admin' | 'agent';
  agency: 'northwind' | 'southbank';
  branch: 'leeds' | 'york' | 'london' | null;
  status?: 'active' | 'disabled' | 'invited';
}

const STAFF: StaffDef[] = [
  { email: 'hannah.brooks@northwind.test', name: 'Hannah Brooks', role: 'admin', agency: 'northwind', branch: null },
  { email: 'aisha.khan@northwind.test', name: 'Aisha Khan', role: 'agent', agency: 'northwind', branch: 'leeds' },
  { email: 'ben.carter@northwind.test', name: 'Ben Carter', role: 'agent', agency: 'northwind', branch: 'leeds' },
  { email: 'james.walker@northwind.test', name: 'James Walker', role: 'agent', agency: 'northwind', branch: 'york' },
  { email: 'sophie.turner@northwind.test', name: 'Sophie Turner', role: 'agent', agency: 'northwind', branch: 'york' },
  { email: 'marcus.bell@southbank.test', name: 'Marcus Bell', role: 'agent', agency: 'southbank', branch: 'london' },
  { email: 'chloe.evans@southbank.test', name: 'Chloe Evans', role: 'agent', agency: 'southbank', branch: 'london' },
  { email: 'gary.mills@northwind.test', name: 'Gary Mills', role: 'agent', agency: 'northwind', branch: 'york', status: 'disabled' },
  { email: 'nina.patel@southbank.test', name: 'Nina Patel', role: 'agent', agency: 'southbank', branch: 'london', status: 'invited' },
];

const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15',
  'CaretakerMobile/2.3 (iPhone; iOS 18.1)',
  'CaretakerMobile/2.3 (Android 15; Pixel 8)',
];

/** Adds the staff accounts and their past sessions. */
export async function usersStep(ctx: DemoContext): Promise<void> {
  const { trx, now, rng } = ctx;
  const roles = await roleIdsByCode(trx);
  for (const s of STAFF) {
    const status = s.status ?? 'active';
    const createdAt = addSeconds(now, -rng.int(30, 400) * SECONDS.day);
    const userId = await insertId(trx, 'users', {
      uuid: ctx.uuid(),
      agency_id: ctx.ids.agencies[s.agency],
      branch_id: s.branch ? ctx.ids.branches[s.branch] : null,
      role_id: roles.get(s.role)!,
      name: s.name,
      email: s.email,
      // The invited account's password is unusable until it accepts an invitation.
      password_hash: status === 'invited' ? `!invited-${newUuid()}` : ctx.passwordHash,
      status,
      invited_at: status === 'invited' ? addSeconds(now, -2 * SECONDS.day) : null,
      disabled_at: status === 'disabled' ? addSeconds(now, -rng.int(5, 60) * SECONDS.day) : null,
      last_login_at: status === 'invited' ? null : addSeconds(now, -rng.int(1, 72) * SECONDS.hour),
      created_at: createdAt,
      updated_at: createdAt,
    });
    ctx.ids.users[s.email] = userId;
    if (status === 'invited') continue;

    // Past sessions: revoked by a later login, or expired. Never active.
    const count = rng.int(2, 5);
    for (let i = 0; i < count; i++) {
      const kind = rng.pick(['login', 'session', 'mobile'] as const);
      const created = addSeconds(now, -rng.int(3, 80) * SECONDS.day - rng.int(0, 86_399));
      const lifetime = kind === 'session' ? 2 * SECONDS.hour : kind === 'login' ? 90 * SECONDS.day : 365 * SECONDS.day;
      const expired = kind === 'session' || rng.chance(0.3);
      const expiresAt = expired && kind !== 'session' ? addSeconds(now, -rng.int(1, 20) * SECONDS.day) : addSeconds(created, lifetime);
      const revokedAt = expired ? null : addSeconds(created, rng.int(1, 48) * SECONDS.hour);
      await insertRows(trx, 'auth_tokens', [{
        user_id: userId,
        token_hash: hashToken(`demo-past-session:${s.email}:${i}:${rng.next()}`),
        kind,
        created_at: created,
        expires_at: expiresAt,
        last_used_at: addSeconds(created, rng.int(60, 3600)),
        revoked_at: revokedAt,
        revoked_reason: revokedAt ? 'superseded by a new login' : null,
        ip_address: `192.0.2.${rng.int(2, 254)}`,
        user_agent: rng.pick(USER_AGENTS),
      }]);
    }
  }
  ctx.log(`demo: ${STAFF.length} more staff accounts with past sessions`);
}
