/**
 * A checksum of the business tables and of the activity-log writes that are not refusals, taken
 * before and after a request: a 4xx must leave it unchanged ("bad input changes nothing").
 * Session, CSRF and rate-limit bookkeeping are left out (they change on every request).
 */
import { sql } from 'kysely';
import type { TestApp } from '../helpers/app.ts';

const TABLES = [
  'agencies', 'branches', 'users', 'roles', 'role_permissions', 'addresses', 'tenants', 'tenant_addresses', 'contractors',
  'contractor_trades', 'contractor_coverage', 'contractor_contacts', 'contractor_certifications', 'trades', 'job_time_ranges',
  'jobs', 'job_notes', 'job_files', 'job_status_history', 'branch_sla_rules', 'device_tokens', 'user_appearance',
  'gdpr_consents', 'rate_limit_overrides', 'security_blacklist', 'outbox',
];

/** Activity entries a refused request may write (denials, throttles, failed logins). */
const REFUSAL = `(action like '%deny%' or action like '%denied%' or action like '%throttled' or action like '%failed' or action like '%refused' or action like 'security.blocked%')`;

/** One text that changes whenever a tracked row changes. */
export async function fingerprint(t: TestApp): Promise<string> {
  const parts = TABLES.map((table) => `(select md5(coalesce(string_agg(md5(x::text), ',' order by md5(x::text)), '')) from ${table} x)`);
  parts.push(`(select count(*)::text from activity_log where not ${REFUSAL})`);
  const row = await sql<{ f: string }>`select ${sql.raw(parts.join(" || '|' || "))} as f`.execute(t.db);
  return row.rows[0]!.f;
}
