// Administration area: rate-limit overrides per route (set by SysOps at run time) and a unique
// custom role name per agency (global custom roles share the slot agency 0; built-in roles are
// left out so the start-up sync of built-in roles can never clash with a custom name).
// Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    create table rate_limit_overrides (
      route text primary key,
      ip_max integer,
      account_max integer,
      window_s integer,
      updated_at timestamptz not null,
      updated_by_user_id integer references users(id)
    );

    create unique index roles_custom_agency_name on roles ((coalesce(agency_id, 0)), (lower(name))) where not is_builtin;
    create index if not exists roles_area_users_role on users (role_id);
    create index if not exists roles_area_users_branch on users (branch_id) where branch_id is not null;
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    drop index if exists roles_area_users_branch;
    drop index if exists roles_area_users_role;
    drop index if exists roles_custom_agency_name;
    drop table if exists rate_limit_overrides;
  `);
}
