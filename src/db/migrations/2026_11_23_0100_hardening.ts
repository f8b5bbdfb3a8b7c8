// Hardening (docs/security.md):
// 1. Platform-wide permission keys (metrics, rate-limit settings) leave every role that is not a
//    platform role (SysOps or a global custom role); the built-in API role held the metrics key.
// 2. The security blacklist: addresses, CIDR ranges and accounts refused before any other work.
// Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    delete from role_permissions
     where permission_key in ('api.system.metrics.view', 'api.admin.rate-limits.manage')
       and role_id in (select id from roles where agency_id is not null or (is_builtin and code <> 'sysops'));
    create table security_blacklist (
      id serial primary key,
      uuid uuid not null unique,
      kind text not null check (kind in ('ip', 'cidr', 'account')),
      value text,
      user_id integer references users(id),
      agency_id integer references agencies(id),
      reason text not null,
      added_by_user_id integer references users(id),
      automatic boolean not null default false,
      expires_at timestamptz,
      created_at timestamptz not null,
      removed_at timestamptz,
      removed_by_user_id integer references users(id),
      check ((kind = 'account') = (user_id is not null)),
      check ((kind = 'account') = (value is null))
    );
    create index security_blacklist_live on security_blacklist (id) where removed_at is null;
    create index security_blacklist_agency on security_blacklist (agency_id, id desc);
  `);
}
