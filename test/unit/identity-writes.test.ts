/** src/db/identity-writes.ts: which statements make cached token lookups stale (docs/security.md, "Token lookup cache"). */
import { describe, expect, it } from 'vitest';
import { writesIdentity } from '../../src/db/identity-writes.ts';

describe('writesIdentity', () => {
  it('counts revocations, account, role and permission changes', () => {
    expect(writesIdentity('update "auth_tokens" set "revoked_at" = $1, "revoked_reason" = $2 where "id" = $3 and "revoked_at" is null')).toBe(true);
    expect(writesIdentity('update "users" set "status" = $1 where "id" = $2')).toBe(true);
    expect(writesIdentity('update "users" set "last_login_at" = $1, "role_id" = $2 where "id" = $3')).toBe(true);
    expect(writesIdentity('delete from "auth_tokens" where "user_id" = $1')).toBe(true);
    expect(writesIdentity('insert into "role_permissions" ("role_id", "permission_key") values ($1, $2)')).toBe(true);
    expect(writesIdentity('delete from "role_permissions" where "role_id" = $1')).toBe(true);
    expect(writesIdentity('update "roles" set "name" = $1 where "id" = $2')).toBe(true);
    expect(writesIdentity('with x as (update auth_tokens set revoked_at = now() where user_id = 1 returning id) select count(*) from x')).toBe(true);
  });

  it('leaves out new tokens and accounts, touches, login stamps and other tables', () => {
    expect(writesIdentity('insert into "auth_tokens" ("user_id", "token_hash") values ($1, $2) returning "id"')).toBe(false);
    expect(writesIdentity('insert into "users" ("email") values ($1)')).toBe(false);
    expect(writesIdentity('update "auth_tokens" set "last_used_at" = $1 where "id" = $2')).toBe(false);
    expect(writesIdentity('update "users" set "last_login_at" = $1 where "id" = $2')).toBe(false);
    expect(writesIdentity('select * from "users" where "id" = $1 for update')).toBe(false);
    expect(writesIdentity('update "jobs" set "title" = $1 where "id" = $2')).toBe(false);
    expect(writesIdentity('update "users_archive" set "x" = $1 where "id" = $2')).toBe(false);
  });
});
