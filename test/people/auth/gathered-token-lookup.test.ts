/**
 * docs/live-updates.md "When a stream ends": the live streams' session checks read their tokens in
 * gathered queries (`gatheredTokenLookup`). Lookups asked for together get the same rows as one
 * lookup each (`findTokenWithIdentity`), an unknown token none, a token asked for twice the same
 * row, and a revocation committed before a lookup is asked for is seen by it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../../src/lib/crypto.ts';
import { findTokenWithIdentity } from '../../../src/modules/people/auth/auth.repository.ts';
import { gatheredTokenLookup } from '../../../src/modules/people/auth/index.ts';
import { buildTestApp, createAgency, createUser, login, type TestApp } from '../../helpers/app.ts';

describe('gathered token lookups (live streams session checks)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t.close());

  it('answers each lookup of a gathered query as one lookup would', async () => {
    const agency = await createAgency(t.db);
    const first = await createUser(t.db, { role: 'admin', agencyId: agency.id });
    const second = await createUser(t.db, { role: 'agent', agencyId: agency.id });
    const [a, b] = [hashToken(await login(t.app, first.email)), hashToken(await login(t.app, second.email))];
    const lookup = gatheredTokenLookup(t.deps);

    const [rowA, rowB, again, unknown] = await Promise.all([lookup(a), lookup(b), lookup(a), lookup(hashToken('no such token'))]);
    expect(rowA).toEqual(await findTokenWithIdentity(t.db, a));
    expect(rowB).toEqual(await findTokenWithIdentity(t.db, b));
    expect(rowA!.user_id).toBe(first.id);
    expect(rowB!.user_id).toBe(second.id);
    expect(again).toBe(rowA);
    expect(unknown).toBeUndefined();

    await t.db.updateTable('auth_tokens').set({ revoked_at: new Date(), revoked_reason: 'logout' }).where('token_hash', '=', a).execute();
    expect((await lookup(a))!.revoked_at).not.toBeNull();
  });
});
