import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverPush } from '../../../src/modules/messaging/push/index.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { makeTlsCert, startApnsServer } from './servers.ts';
import { addToken, caFile, pushWorld, tokensOf } from './world.ts';

const hex = () => randomBytes(32).toString('hex');

describe('push to iOS through APNs over HTTP/2 with an ES256 provider token', () => {
  let t: TestApp;
  let apns: Awaited<ReturnType<typeof startApnsServer>>;
  let w: Awaited<ReturnType<typeof pushWorld>>;
  const dead = new Set<string>();
  const bad = new Set<string>();
  const hang = new Set<string>();

  beforeAll(async () => {
    const tls = await makeTlsCert();
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    let now = () => new Date();
    apns = await startApnsServer({ tls, publicKey, keyId: 'ABC123DEFG', teamId: 'TEAM123456', topic: 'uk.caretaker.app', dead, bad, hang, now: () => now() });
    t = await buildTestApp({
      CARETAKER_APNS_KEY_ID: 'ABC123DEFG',
      CARETAKER_APNS_TEAM_ID: 'TEAM123456',
      CARETAKER_APNS_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      CARETAKER_APNS_TOPIC: 'uk.caretaker.app',
      CARETAKER_APNS_URL: apns.url,
      CARETAKER_PUSH_CA_FILE: await caFile(tls),
      CARETAKER_PUSH_TIMEOUT_MS: '5000',
    });
    now = () => t.clock.now();
    w = await pushWorld(t.db);
  });
  afterAll(async () => {
    await t?.close();
    await apns?.close();
  });

  it('delivers an alert to each live token with the topic, push type and a verified JWT, and removes the unregistered ones', async () => {
    const live = hex();
    const gone = hex();
    const invalid = hex();
    dead.add(gone);
    bad.add(invalid);
    const ids = [await addToken(t.db, w.user.id, live, 'ios'), await addToken(t.db, w.user.id, gone, 'ios'), await addToken(t.db, w.user.id, invalid, 'ios')];
    const otherToken = hex();
    await addToken(t.db, w.other.id, otherToken, 'ios');

    const results = await deliverPush(t.deps, { userId: w.user.id, title: 'Job received', body: 'We have your report', data: { job_uuid: 'j-1' } });

    expect(results.sort((a, b) => a.deviceTokenId - b.deviceTokenId)).toEqual([
      { deviceTokenId: ids[0], platform: 'ios', status: 'sent' },
      { deviceTokenId: ids[1], platform: 'ios', status: 'removed', error: 'APNs 410 Unregistered' },
      { deviceTokenId: ids[2], platform: 'ios', status: 'removed', error: 'APNs 400 BadDeviceToken' },
    ]);
    expect(await tokensOf(t.db, w.user.id)).toEqual([live]);
    expect(await tokensOf(t.db, w.other.id)).toEqual([otherToken]);
    const sent = apns.received.find((r) => r.path === `/3/device/${live}`)!;
    expect(sent.headers).toMatchObject({ 'apns-topic': 'uk.caretaker.app', 'apns-push-type': 'alert', 'apns-priority': '10' });
    expect(JSON.parse(sent.body)).toEqual({ job_uuid: 'j-1', aps: { alert: { title: 'Job received', body: 'We have your report' }, sound: 'default' } });
    expect(apns.received.some((r) => r.path.endsWith(otherToken))).toBe(false);
    const log = await t.db.selectFrom('activity_log').select(['action', 'resource_id', 'user_id', 'agency_id']).where('action', '=', 'device_token.unregistered').execute();
    expect(log).toHaveLength(2);
    expect(log[0]).toMatchObject({ user_id: w.user.id, agency_id: w.agency.id });
  });

  it('reuses the provider token within 50 minutes and signs a new one after (Apple refuses tokens older than an hour)', async () => {
    const token = hex();
    await addToken(t.db, w.other.id, token, 'ios');
    await deliverPush(t.deps, { userId: w.other.id, title: 'a', body: 'b' });
    t.clock.advance(30 * 60);
    await deliverPush(t.deps, { userId: w.other.id, title: 'a', body: 'b' });
    t.clock.advance(30 * 60);
    const results = await deliverPush(t.deps, { userId: w.other.id, title: 'a', body: 'b' });
    expect(results.every((r) => r.status === 'sent')).toBe(true);
    const jwts = apns.received.filter((r) => r.path.endsWith(token)).map((r) => r.headers.authorization);
    expect(jwts).toHaveLength(3);
    expect(jwts[1]).toBe(jwts[0]);
    expect(jwts[2]).not.toBe(jwts[0]);
  });

  it('gives a malformed token a failed result without calling APNs, and a user without tokens no results', async () => {
    const id = await addToken(t.db, w.other.id, 'not-hex-token', 'ios');
    const results = await deliverPush(t.deps, { userId: w.other.id, title: 'a', body: 'b' });
    expect(results.find((r) => r.deviceTokenId === id)).toEqual({ deviceTokenId: id, platform: 'ios', status: 'failed', error: 'malformed APNs device token' });
    expect(apns.received.some((r) => r.path.includes('not-hex'))).toBe(false);
    expect(await deliverPush(t.deps, { userId: 2147483647, title: 'a', body: 'b' })).toEqual([]);
  });

  it('gives up on a token APNs never answers after the timeout while the other tokens of the batch are delivered', async () => {
    const user = (await pushWorld(t.db)).user;
    const slow = hex();
    hang.add(slow);
    const slowId = await addToken(t.db, user.id, slow, 'ios');
    const fastId = await addToken(t.db, user.id, hex(), 'ios');
    const results = await deliverPush(t.deps, { userId: user.id, title: 'a', body: 'b' });
    expect(results.sort((a, b) => a.deviceTokenId - b.deviceTokenId)).toEqual([
      { deviceTokenId: slowId, platform: 'ios', status: 'failed', error: expect.stringMatching(/timeout after 5000 ms|APNs: /) },
      { deviceTokenId: fastId, platform: 'ios', status: 'sent' },
    ]);
    expect(await tokensOf(t.db, user.id)).toHaveLength(2);
  });
});
