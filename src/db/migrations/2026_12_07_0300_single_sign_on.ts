// Single sign-on by OpenID Connect (docs/security.md "Single sign-on"): one provider per agency
// (issuer, client id and secret, the agency's own e-mail domains, whether to create users on
// first sign-in and with which role, whether staff must use it), and the pending sign-ins (state,
// nonce, PKCE verifier, the browser's binding), each used once and expiring. Expand: new tables.
// Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    create table if not exists agency_sso (
      agency_id integer primary key references agencies(id) on delete cascade,
      provider text not null check (provider in ('microsoft', 'google', 'other')),
      issuer text not null,
      client_id text not null,
      client_secret text not null,
      domains text[] not null,
      enabled boolean not null default true,
      create_users boolean not null default false,
      default_role_id integer references roles(id),
      default_branch_id integer references branches(id),
      require_for_staff boolean not null default false,
      created_at timestamptz not null,
      updated_at timestamptz not null
    );
    create table if not exists sso_states (
      state_hash text primary key,
      agency_id integer not null references agencies(id) on delete cascade,
      browser_hash text not null,
      nonce text not null,
      code_verifier text not null,
      return_to text,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz
    );
    create index if not exists sso_states_expires_at on sso_states (expires_at);
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    drop table if exists sso_states;
    drop table if exists agency_sso;
  `);
}
