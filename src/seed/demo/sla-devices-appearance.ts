/**
 * Demo step for the SLA-rule, device, appearance and time-range areas (docs/demo-data.md): SLA response-time rules for every branch, push device tokens for the demo
 * accounts, dashboard appearance for two Northwind accounts, and a Northwind-only time slot.
 */
import { DAY_MS } from '../../lib/clock.ts';
import { hashToken } from '../../lib/crypto.ts';
import type { DemoContext } from './context.ts';
import { insertRows } from '../../db/seed.repository.ts';


interface RuleDef {
  description: string;
  from: number;
  to: number;
  type: number | null;
  priority: number | null;
  track: string;
  compare: string;
  days: number;
}

/** Rules every branch gets (statuses: 1 reported, 3 approved, 4 assigned, 5 scheduled, 6 in progress, 7 completed). */
const RULES: RuleDef[] = [
  { description: 'Emergency jobs attended within 1 day', from: 1, to: 6, type: 2, priority: 1, track: 'attended_at', compare: 'created_at', days: 1 },
  { description: 'Urgent repairs attended within 3 days', from: 1, to: 6, type: 1, priority: 2, track: 'attended_at', compare: 'created_at', days: 3 },
  { description: 'Routine repairs completed within 28 days', from: 1, to: 7, type: 1, priority: 3, track: 'completed_at', compare: 'created_at', days: 28 },
  { description: 'Approved jobs assigned to a contractor within 2 days', from: 3, to: 4, type: null, priority: null, track: 'assigned_at', compare: 'approved_at', days: 2 },
];
const OPTIONAL_RULE: RuleDef = {
  description: 'Inspections completed within 14 days of scheduling', from: 5, to: 7, type: 4, priority: null, track: 'completed_at', compare: 'scheduled_for', days: 14,
};

/** A deterministic device token for a platform, from the seeded random source. */
function demoToken(ctx: DemoContext, platform: 'ios' | 'android' | 'web'): string {
  const hex = (n: number) => Array.from({ length: n }, () => ctx.rng.int(0, 15).toString(16)).join('');
  if (platform === 'ios') return hex(64);
  if (platform === 'android') return `${hex(22)}:APA91b${hex(134)}`;
  return `https://fcm.googleapis.com/fcm/send/${hex(11)}:${hex(140)}`;
}

/** Writes the SLA-rule, device, appearance and time-slot demo data. */
export async function slaDevicesAppearanceStep(ctx: DemoContext): Promise<void> {
  const { trx, now, ids } = ctx;
  const branches = [
    { id: ids.branches.leeds, agency: ids.agencies.northwind },
    { id: ids.branches.york, agency: ids.agencies.northwind },
    { id: ids.branches.london, agency: ids.agencies.southbank },
  ];
  const creator = ids.users['admin@northwind.test'] ?? null;
  for (const branch of branches) {
    const rules = ctx.rng.chance(0.5) ? [...RULES, OPTIONAL_RULE] : RULES;
    for (const r of rules) {
      await insertRows(trx, 'branch_sla_rules', [{
        uuid: ctx.uuid(), agency_id: branch.agency, branch_id: branch.id, job_status_from_id: r.from, job_status_to_id: r.to,
        job_type_id: r.type, job_priority: r.priority, date_field_to_track: r.track, date_field_to_compare: r.compare,
        minimum_response_days: r.days, description: r.description,
        created_by_user_id: branch.agency === ids.agencies.northwind ? creator : (ids.users['admin@southbank.test'] ?? null),
        created_at: now, updated_at: now,
      }]);
    }
  }
  ctx.log('demo: SLA rules');

  for (const [email, userId] of Object.entries(ids.users)) {
    const platforms = email.startsWith('api@') ? [] : ctx.rng.chance(0.5) ? (['ios', 'web'] as const) : (['android'] as const);
    for (const platform of platforms) {
      const token = demoToken(ctx, platform);
      await insertRows(trx, 'device_tokens', [
        { user_id: userId, device_token: token, token_hash: hashToken(token), platform, registered_at: new Date(now.getTime() - ctx.rng.int(1, 60) * DAY_MS) },
      ]);
    }
  }
  ctx.log('demo: device tokens');

  const appearance: Array<[string, string]> = [['admin@northwind.test', '#1f4e79'], ['agent@northwind.test', 'ocean']];
  for (const [email, bg] of appearance) {
    const userId = ids.users[email];
    if (userId !== undefined) await insertRows(trx, 'user_appearance', [{ user_id: userId, dashboard_bg_custom: bg, updated_at: now }]);
  }
  await insertRows(trx, 'job_time_ranges', [
    { range_label: 'Saturday morning 09:00-12:00', starts_at: '09:00', ends_at: '12:00', sort_order: 50, agency_id: ids.agencies.northwind, created_at: now, updated_at: now },
  ]);
  ctx.log('demo: appearance and time ranges');
}
