import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverPush, generateVapidKeys } from '../../../src/modules/messaging/push/index.ts';
import { buildTestApp, userClient, type TestApp } from '../../helpers/app.ts';
import { makeSubscription, makeTlsCert, startWebPushReceiver } from './servers.ts';
import { addToken, caFile, pushWorld, tokensOf } from './world.ts';

const PATH = '/api/system/device-tokens';

describe('push to browsers through Web Push with VAPID and aes128gcm', () => {
  let t: TestApp;
  let receiver: Awaited<ReturnType<typeof startWebPushReceiver>>;
  let w: Awaited<ReturnType<typeof pushWorld>>;
  const gone = new Set<string>();
  const vapid = generateVapidKeys();

  beforeAll(async () => {
    const tls = await makeTlsCert();
    receiver = await startWebPushReceiver({ tls, vapidPublicKey: vapid.publicKey, subject: 'mailto:ops@caretaker.test', gone });
    t = await buildTestApp({
      CARETAKER_VAPID_PUBLIC_KEY: vapid.publicKey,
      CARETAKER_VAPID_PRIVATE_KEY: vapid.privateKey,
      CARETAKER_VAPID_SUBJECT: 'mailto:ops@caretaker.test',
      CARETAKER_PUSH_CA_FILE: await caFile(tls),
      CARETAKER_PUSH_ALLOW_PRIVATE_ENDPOINTS: 'true',
      CARETAKER_PUSH_TIMEOUT_MS: '5000',
    });
    w = await pushWorld(t.db);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('delivers an encrypted payload the subscription can decrypt, removes a subscription answered 410, and fails a bare endpoint', async () => {
    const live = await addToken(t.db, w.user.id, receiver.subscribe('live'), 'web');
    const expired = await addToken(t.db, w.user.id, receiver.subscribe('expired'), 'web');
    gone.add('expired');
    const bare = await addToken(t.db, w.user.id, `${receiver.url}/push/bare`, 'web');

    const results = await deliverPush(t.deps, { userId: w.user.id, title: 'Job completed', body: 'Your boiler is fixed', data: { job_uuid: 'j-3' } });

    expect(results.sort((a, b) => a.deviceTokenId - b.deviceTokenId)).toEqual([
      { deviceTokenId: live, platform: 'web', status: 'sent' },
      { deviceTokenId: expired, platform: 'web', status: 'removed', error: 'Web Push 410' },
      { deviceTokenId: bare, platform: 'web', status: 'failed', error: 'not a Web Push subscription (endpoint and keys are needed)' },
    ]);
    expect(receiver.decrypted).toEqual([{ id: 'live', payload: { title: 'Job completed', body: 'Your boiler is fixed', data: { job_uuid: 'j-3' } } }]);
    const headers = receiver.received.find((r) => r.path === '/push/live')!.headers;
    expect(headers).toMatchObject({ 'content-encoding': 'aes128gcm', ttl: '86400', urgency: 'normal' });
    expect((await tokensOf(t.db, w.user.id)).length).toBe(2);
  });

  it('refuses endpoints on loopback and private networks unless allowed (the endpoint comes from the browser)', async () => {
    const strict = await buildTestApp({
      CARETAKER_VAPID_PUBLIC_KEY: vapid.publicKey,
      CARETAKER_VAPID_PRIVATE_KEY: vapid.privateKey,
      CARETAKER_VAPID_SUBJECT: 'mailto:ops@caretaker.test',
    });
    try {
      const world = await pushWorld(strict.db);
      const before = receiver.received.length;
      await addToken(strict.db, world.user.id, receiver.subscribe('ssrf'), 'web');
      await addToken(strict.db, world.user.id, makeSubscription('https://localhost:1', 'named').json, 'web');
      await addToken(strict.db, world.user.id, makeSubscription('https://10.1.2.3', 'private').json, 'web');
      const results = await deliverPush(strict.deps, { userId: world.user.id, title: 'a', body: 'b' });
      expect(results).toHaveLength(3);
      for (const r of results) expect(r).toMatchObject({ status: 'failed', error: expect.stringMatching(/^Web Push: refused: .* non-public address$/) });
      expect(receiver.received.length).toBe(before);
    } finally {
      await strict.close();
    }
  });

  it('accepts a PushSubscription JSON at registration in one canonical form, and refuses a malformed one with 400', async () => {
    const c = await userClient(t, { role: 'admin', agencyId: w.agency.id });
    const sub = JSON.parse(receiver.subscribe('registered')) as { endpoint: string; keys: { p256dh: string; auth: string } };
    const spaced = JSON.stringify({ keys: { auth: sub.keys.auth, p256dh: sub.keys.p256dh }, endpoint: sub.endpoint }, null, 2);
    const created = await c.client.post(PATH, { device_token: spaced, platform: 'web' });
    expect(created.statusCode).toBe(201);
    expect(created.json().data.device_token).toBe(JSON.stringify({ endpoint: sub.endpoint, keys: sub.keys }));
    const again = await c.client.post(PATH, { device_token: JSON.stringify(sub), platform: 'web' });
    expect(again.statusCode).toBe(200);
    for (const bad of [
      '{"endpoint":"http://push.example/x","keys":{"p256dh":"' + sub.keys.p256dh + '","auth":"' + sub.keys.auth + '"}}',
      '{"endpoint":"' + sub.endpoint + '","keys":{"p256dh":"abc","auth":"' + sub.keys.auth + '"}}',
      '{"endpoint":"' + sub.endpoint + '"}',
      '{not json',
    ]) {
      const res = await c.client.post(PATH, { device_token: bad, platform: 'web' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ success: false, error: 'Invalid or missing required parameter: device_token' });
    }
    const results = await deliverPush(t.deps, { userId: c.user.id, title: 'Hello', body: 'World' });
    expect(results).toEqual([{ deviceTokenId: created.json().data.ID, platform: 'web', status: 'sent' }]);
    const removed = await c.client.delete(PATH, { device_token: spaced });
    expect(removed.statusCode).toBe(200);
    expect(await tokensOf(t.db, c.user.id)).toEqual([]);
  });
});
