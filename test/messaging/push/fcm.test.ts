import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverPush } from '../../../src/modules/messaging/push/index.ts';
import { sendDueDeliveries } from '../../../src/modules/messaging/messaging/index.ts';
import { newUuid } from '../../../src/lib/crypto.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { makeTlsCert, startFcmServer } from './servers.ts';
import { addToken, caFile, pushWorld, tokensOf } from './world.ts';

describe('push to Android through FCM HTTP v1 with a service-account OAuth2 token', () => {
  let t: TestApp;
  let fcm: Awaited<ReturnType<typeof startFcmServer>>;
  let w: Awaited<ReturnType<typeof pushWorld>>;
  const dead = new Set<string>();
  const invalid = new Set<string>();
  const unavailable = new Set<string>();

  beforeAll(async () => {
    const tls = await makeTlsCert();
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    let now = () => new Date();
    fcm = await startFcmServer({ tls, publicKey, clientEmail: 'push@caretaker-test.iam.gserviceaccount.com', projectId: 'caretaker-test', dead, invalid, unavailable, now: () => now() });
    const serviceAccount = {
      type: 'service_account',
      project_id: 'caretaker-test',
      private_key_id: 'k1',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: 'push@caretaker-test.iam.gserviceaccount.com',
      token_uri: `${fcm.url}/token`,
    };
    t = await buildTestApp({
      CARETAKER_FCM_SERVICE_ACCOUNT: JSON.stringify(serviceAccount),
      CARETAKER_FCM_URL: fcm.url,
      CARETAKER_PUSH_CA_FILE: await caFile(tls),
      CARETAKER_PUSH_TIMEOUT_MS: '5000',
    });
    now = () => t.clock.now();
    w = await pushWorld(t.db);
  });
  afterAll(async () => {
    await t?.close();
    await fcm?.close();
  });

  it('sends each token its message, removes UNREGISTERED and invalid tokens, and keeps a token that failed for another reason', async () => {
    const ids = [
      await addToken(t.db, w.user.id, 'fcm-live', 'android'),
      await addToken(t.db, w.user.id, 'fcm-dead', 'android'),
      await addToken(t.db, w.user.id, 'fcm-invalid', 'android'),
      await addToken(t.db, w.user.id, 'fcm-unavailable', 'android'),
    ];
    dead.add('fcm-dead');
    invalid.add('fcm-invalid');
    unavailable.add('fcm-unavailable');

    const results = await deliverPush(t.deps, { userId: w.user.id, title: 'Visit booked', body: 'Tuesday 9:00-12:00', data: { job_uuid: 'j-2' } });

    expect(results.sort((a, b) => a.deviceTokenId - b.deviceTokenId)).toEqual([
      { deviceTokenId: ids[0], platform: 'android', status: 'sent' },
      { deviceTokenId: ids[1], platform: 'android', status: 'removed', error: 'FCM 404 UNREGISTERED' },
      { deviceTokenId: ids[2], platform: 'android', status: 'removed', error: 'FCM 400 INVALID_ARGUMENT' },
      { deviceTokenId: ids[3], platform: 'android', status: 'failed', error: 'FCM 503 UNAVAILABLE' },
    ]);
    expect(await tokensOf(t.db, w.user.id)).toEqual(['fcm-live', 'fcm-unavailable']);
    const send = fcm.received.find((r) => r.body.includes('"fcm-live"'))!;
    expect(send.path).toBe('/v1/projects/caretaker-test/messages:send');
    expect(JSON.parse(send.body)).toEqual({
      message: { token: 'fcm-live', notification: { title: 'Visit booked', body: 'Tuesday 9:00-12:00' }, data: { job_uuid: 'j-2' }, android: { priority: 'high' } },
    });
    expect(fcm.tokenCalls()).toBe(1);
  });

  it('reuses the access token until a minute before it expires, then asks the token endpoint again', async () => {
    await addToken(t.db, w.other.id, 'fcm-other', 'android');
    const before = fcm.tokenCalls();
    await deliverPush(t.deps, { userId: w.other.id, title: 'a', body: 'b' });
    expect(fcm.tokenCalls()).toBe(before);
    t.clock.advance(3599 - 59);
    const results = await deliverPush(t.deps, { userId: w.other.id, title: 'a', body: 'b' });
    expect(results[0]!.status).toBe('sent');
    expect(fcm.tokenCalls()).toBe(before + 1);
  });

  it('reports an iOS token as not configured when only FCM is set up, without touching it', async () => {
    const ios = await addToken(t.db, w.other.id, 'a'.repeat(64), 'ios');
    const results = await deliverPush(t.deps, { userId: w.other.id, title: 'a', body: 'b' });
    expect(results.find((r) => r.deviceTokenId === ios)).toEqual({ deviceTokenId: ios, platform: 'ios', status: 'failed', error: 'not configured' });
    expect(await tokensOf(t.db, w.other.id)).toContain('a'.repeat(64));
  });

  it('a push delivery whose tokens are all dead or on an unconfigured platform fails at its first attempt (not_configured), the dead one pruned', async () => {
    const user = (await pushWorld(t.db)).user;
    dead.add('d'.repeat(40));
    await addToken(t.db, user.id, 'd'.repeat(40), 'android');
    await addToken(t.db, user.id, 'b'.repeat(64), 'ios');
    const now = t.clock.now();
    const uuid = newUuid();
    await t.db.insertInto('message_deliveries').values({
      uuid, agency_id: w.agency.id, event_id: newUuid(), event_name: 'job.created', template_key: 'job.received', channel: 'push',
      recipient_key: `user:${user.id}`, recipient_kind: 'tenant', recipient_user_id: user.id, recipient_address: null, status: 'queued', reason: null,
      attempts: 0, last_error: null, subject: 'Received', content: JSON.stringify({ title: 'Received', body: 'JOB-1' }), next_attempt_at: now, created_at: now, updated_at: now, sent_at: null,
    }).execute();
    expect(await sendDueDeliveries(t.deps)).toMatchObject({ sent: 0, retrying: 0, failed: 1 });
    const row = await t.db.selectFrom('message_deliveries').select(['status', 'reason', 'attempts', 'next_attempt_at']).where('uuid', '=', uuid).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'failed', reason: 'not_configured', attempts: 1, next_attempt_at: null });
    expect(await tokensOf(t.db, user.id)).toEqual(['b'.repeat(64)]);
  });
});
