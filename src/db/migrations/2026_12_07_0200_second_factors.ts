// Second factors (docs/security.md "Two-factor sign-in"): a TOTP secret per user (RFC 6238) with
// the last time step used (replays refused), recovery codes (argon2id hashes, each used once),
// passkeys (WebAuthn credentials: id, public key, signature counter), sign-in challenges (the
// half-done sign-in between the password and the second factor, stored by hash, single use), and
// the agency's policy flag requiring a second factor for its staff. Expand: new tables and a
// defaulted column. Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    create table if not exists user_totp (
      user_id integer primary key references users(id) on delete cascade,
      secret text not null,
      confirmed_at timestamptz,
      last_step bigint,
      created_at timestamptz not null
    );
    create table if not exists user_recovery_codes (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      code_hash text not null,
      used_at timestamptz,
      created_at timestamptz not null
    );
    create index if not exists user_recovery_codes_user on user_recovery_codes (user_id);
    create table if not exists user_passkeys (
      id serial primary key,
      uuid uuid not null unique,
      user_id integer not null references users(id) on delete cascade,
      credential_id text not null unique,
      public_key text not null,
      counter bigint not null default 0,
      transports text[] not null default '{}',
      name text not null,
      created_at timestamptz not null,
      last_used_at timestamptz
    );
    create index if not exists user_passkeys_user on user_passkeys (user_id);
    create table if not exists auth_challenges (
      id serial primary key,
      challenge_hash text not null unique,
      user_id integer references users(id) on delete cascade,
      purpose text not null check (purpose in ('second_factor', 'enrol', 'passkey_login', 'passkey_register')),
      credential text check (credential in ('session', 'login', 'mobile')),
      remember_me boolean not null default false,
      webauthn_challenge text,
      totp_secret text,
      attempts integer not null default 0,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz
    );
    create index if not exists auth_challenges_user on auth_challenges (user_id);
    alter table agencies add column if not exists require_second_factor boolean not null default false;
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    alter table agencies drop column if exists require_second_factor;
    drop table if exists auth_challenges;
    drop table if exists user_passkeys;
    drop table if exists user_recovery_codes;
    drop table if exists user_totp;
  `);
}
