import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/config.ts';
import { isPublicAddress, outboundRequest } from '../../../src/lib/outbound-http.ts';
import { generateVapidKeys } from '../../../src/modules/messaging/push/index.ts';
import { loadPushConfig } from '../../../src/config/push.ts';

const ecPem = () => generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const rsaPem = () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const apnsEnv = () => ({ CARETAKER_APNS_KEY_ID: 'K', CARETAKER_APNS_TEAM_ID: 'T', CARETAKER_APNS_PRIVATE_KEY: ecPem(), CARETAKER_APNS_TOPIC: 'uk.app' });

function configError(env: Record<string, string>): string {
  try {
    loadPushConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.variable;
    throw err;
  }
  return 'no error';
}

describe('push configuration from the environment', () => {
  it('leaves every provider unconfigured without variables', () => {
    expect(loadPushConfig({})).toEqual({ timeoutMs: 10_000, extraCa: undefined, allowPrivateEndpoints: false, fcm: undefined, apns: undefined, webPush: undefined });
  });

  it('reads APNs with the sandbox host by default and the production host when asked, the key inline with \\n or from a file', async () => {
    expect(loadPushConfig(apnsEnv()).apns).toMatchObject({ keyId: 'K', teamId: 'T', topic: 'uk.app', production: false, baseUrl: 'https://api.sandbox.push.apple.com' });
    const oneLine = { ...apnsEnv(), CARETAKER_APNS_PRODUCTION: 'true' };
    oneLine.CARETAKER_APNS_PRIVATE_KEY = oneLine.CARETAKER_APNS_PRIVATE_KEY.replace(/\n/g, '\\n');
    expect(loadPushConfig(oneLine).apns).toMatchObject({ production: true, baseUrl: 'https://api.push.apple.com' });
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'apns-')), 'AuthKey.p8');
    await writeFile(file, ecPem());
    expect(loadPushConfig({ ...apnsEnv(), CARETAKER_APNS_PRIVATE_KEY: file }).apns?.privateKey).toContain('BEGIN PRIVATE KEY');
  });

  it('names the variable of a partial or bad provider configuration', () => {
    const { CARETAKER_APNS_TOPIC: _omit, ...noTopic } = apnsEnv();
    expect(configError(noTopic)).toBe('CARETAKER_APNS_TOPIC');
    expect(configError({ ...apnsEnv(), CARETAKER_APNS_PRIVATE_KEY: rsaPem() })).toBe('CARETAKER_APNS_PRIVATE_KEY');
    expect(configError({ ...apnsEnv(), CARETAKER_APNS_PRODUCTION: 'maybe' })).toBe('CARETAKER_APNS_PRODUCTION');
    expect(configError({ CARETAKER_FCM_SERVICE_ACCOUNT: '{"project_id":"p"}' })).toBe('CARETAKER_FCM_SERVICE_ACCOUNT');
    expect(configError({ CARETAKER_FCM_SERVICE_ACCOUNT: '/no/such/file.json' })).toBe('CARETAKER_FCM_SERVICE_ACCOUNT');
    const vapid = generateVapidKeys();
    expect(configError({ CARETAKER_VAPID_PUBLIC_KEY: vapid.publicKey, CARETAKER_VAPID_PRIVATE_KEY: vapid.privateKey })).toBe('CARETAKER_VAPID_SUBJECT');
    expect(configError({ CARETAKER_VAPID_PUBLIC_KEY: 'short', CARETAKER_VAPID_PRIVATE_KEY: vapid.privateKey, CARETAKER_VAPID_SUBJECT: 'mailto:a@b.c' })).toBe('CARETAKER_VAPID_PUBLIC_KEY');
    expect(configError({ CARETAKER_PUSH_TIMEOUT_MS: '5' })).toBe('CARETAKER_PUSH_TIMEOUT_MS');
    expect(configError({ CARETAKER_PUSH_CA_FILE: '-----BEGIN PRIVATE KEY-----' })).toBe('CARETAKER_PUSH_CA_FILE');
  });

  it('reads an FCM service account inline, with the token endpoint from its token_uri', () => {
    const json = JSON.stringify({ type: 'service_account', project_id: 'p1', client_email: 'a@p1.iam.gserviceaccount.com', private_key: rsaPem() });
    expect(loadPushConfig({ CARETAKER_FCM_SERVICE_ACCOUNT: json }).fcm).toMatchObject({
      projectId: 'p1',
      tokenUri: 'https://oauth2.googleapis.com/token',
      baseUrl: 'https://fcm.googleapis.com',
    });
  });
});

describe('outbound HTTP guard and deadline', () => {
  it('treats loopback, private, link-local, CGNAT, unique-local and IPv4-mapped private addresses as non-public', () => {
    for (const a of ['127.0.0.1', '10.0.0.5', '172.16.3.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fd00::1', 'fe80::1', '::ffff:10.0.0.1', '::ffff:7f00:1', '::7f00:1', '2002:7f00:1::', '64:ff9b::a00:1', '2001:0:808:808::f5f5:f5fe']) {
      expect(isPublicAddress(a), a).toBe(false);
    }
    for (const a of ['142.250.180.10', '17.188.166.10', '2a00:1450:4009:81f::200a', '::ffff:8.8.8.8', '64:ff9b::808:808']) expect(isPublicAddress(a), a).toBe(true);
  });

  it('ends a request that gets no answer at its deadline', async () => {
    const server = http.createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      await expect(outboundRequest({ method: 'POST', url, body: 'x', timeoutMs: 200 })).rejects.toThrow('timeout after 200 ms');
      await expect(outboundRequest({ method: 'POST', url, body: 'x', timeoutMs: 200, refusePrivate: true })).rejects.toThrow('refused: 127.0.0.1');
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
