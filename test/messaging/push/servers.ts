/**
 * Local stand-ins for the push providers, speaking their real protocols over TLS with a
 * certificate made at test time: APNs (HTTP/2, ES256 provider token), FCM HTTP v1 (OAuth2 token
 * endpoint with an RS256 assertion, messages:send) and a Web Push receiver (VAPID, aes128gcm).
 * Each records what it received and answers as the real service does for live and dead tokens.
 */
import { createECDH, randomBytes, type KeyObject } from 'node:crypto';
import http2 from 'node:http2';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import ece from 'http_ece';
import { decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import { generate } from 'selfsigned';

export interface TlsMaterial {
  key: string;
  cert: string;
}

/** A self-signed certificate for 127.0.0.1 and localhost. */
export async function makeTlsCert(): Promise<TlsMaterial> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}

interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function readBody(req: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * APNs: `POST /3/device/{token}` over HTTP/2; verifies the bearer provider token (ES256, kid,
 * iss, at most an hour old at `now()`), apns-topic and apns-push-type; 410 Unregistered for
 * `dead` tokens, 400 BadDeviceToken for `bad` ones, no answer for `hang` ones, else 200 with an
 * apns-id.
 */
export async function startApnsServer(opts: {
  tls: TlsMaterial;
  publicKey: KeyObject;
  keyId: string;
  teamId: string;
  topic: string;
  dead: Set<string>;
  bad: Set<string>;
  /** Tokens whose request is never answered. */
  hang?: Set<string>;
  now: () => Date;
}) {
  const received: Received[] = [];
  const server = http2.createSecureServer({ key: opts.tls.key, cert: opts.tls.cert });
  server.on('stream', (stream, headers) => {
    void (async () => {
      const body = (await readBody(stream)).toString('utf8');
      const path = String(headers[':path']);
      received.push({ path, headers: { ...headers }, body });
      const answer = (status: number, json?: object) => {
        stream.respond({ ':status': status, 'apns-id': randomBytes(16).toString('hex'), ...(json ? { 'content-type': 'application/json' } : {}) });
        stream.end(json ? JSON.stringify(json) : undefined);
      };
      const match = /^\/3\/device\/([0-9a-fA-F]+)$/.exec(path);
      if (headers[':method'] !== 'POST' || !match) return answer(404, { reason: 'BadPath' });
      const auth = String(headers.authorization ?? '');
      if (!auth.startsWith('bearer ')) return answer(403, { reason: 'MissingProviderToken' });
      const jwt = auth.slice(7);
      try {
        if (decodeProtectedHeader(jwt).kid !== opts.keyId) throw new Error('kid');
        await jwtVerify(jwt, opts.publicKey, { algorithms: ['ES256'], issuer: opts.teamId, currentDate: opts.now(), maxTokenAge: '1h' });
      } catch {
        return answer(403, { reason: 'InvalidProviderToken' });
      }
      if (headers['apns-topic'] !== opts.topic) return answer(400, { reason: 'TopicDisallowed' });
      if (headers['apns-push-type'] !== 'alert') return answer(400, { reason: 'InvalidPushType' });
      const token = match[1]!;
      if (opts.hang?.has(token)) return;
      if (opts.dead.has(token)) return answer(410, { reason: 'Unregistered', timestamp: opts.now().getTime() });
      if (opts.bad.has(token)) return answer(400, { reason: 'BadDeviceToken' });
      return answer(200);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * FCM HTTP v1: `POST /token` (OAuth2 JWT bearer grant; verifies the RS256 assertion's iss, aud,
 * scope) and `POST /v1/projects/{project}/messages:send` (verifies the access token); 404
 * UNREGISTERED for `dead` tokens, 400 INVALID_ARGUMENT on message.token for `invalid` ones, 503
 * for `unavailable` ones, else 200.
 */
export async function startFcmServer(opts: {
  tls: TlsMaterial;
  publicKey: KeyObject;
  clientEmail: string;
  projectId: string;
  dead: Set<string>;
  invalid: Set<string>;
  unavailable: Set<string>;
  now: () => Date;
}) {
  const received: Received[] = [];
  const issued = new Set<string>();
  let tokenCalls = 0;
  const server = https.createServer({ key: opts.tls.key, cert: opts.tls.cert }, (req, res) => {
    void (async () => {
      const body = (await readBody(req)).toString('utf8');
      const path = req.url ?? '';
      received.push({ path, headers: req.headers, body });
      const json = (status: number, value: object) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
        res.end(JSON.stringify(value));
      };
      if (req.method === 'POST' && path === '/token') {
        tokenCalls += 1;
        const form = new URLSearchParams(body);
        if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return json(400, { error: 'unsupported_grant_type' });
        try {
          const { payload } = await jwtVerify(form.get('assertion') ?? '', opts.publicKey, {
            algorithms: ['RS256'],
            issuer: opts.clientEmail,
            audience: `${serverUrl}/token`,
            currentDate: opts.now(),
          });
          if (payload.scope !== 'https://www.googleapis.com/auth/firebase.messaging') throw new Error('scope');
        } catch {
          return json(400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
        }
        const token = `ya29.test-${randomBytes(8).toString('hex')}`;
        issued.add(token);
        return json(200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
      }
      if (req.method === 'POST' && path === `/v1/projects/${opts.projectId}/messages:send`) {
        const bearer = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
        if (!issued.has(bearer)) return json(401, { error: { code: 401, status: 'UNAUTHENTICATED', message: 'Request had invalid authentication credentials.' } });
        const token = (JSON.parse(body) as { message: { token: string } }).message.token;
        const fcmError = (errorCode: string) => ({ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode });
        if (opts.dead.has(token)) {
          return json(404, { error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND', details: [fcmError('UNREGISTERED')] } });
        }
        if (opts.invalid.has(token)) {
          return json(400, {
            error: {
              code: 400,
              message: 'The registration token is not a valid FCM registration token',
              status: 'INVALID_ARGUMENT',
              details: [fcmError('INVALID_ARGUMENT'), { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'message.token', description: 'Invalid registration token' }] }],
            },
          });
        }
        if (opts.unavailable.has(token)) return json(503, { error: { code: 503, status: 'UNAVAILABLE', message: 'The service is currently unavailable.', details: [fcmError('UNAVAILABLE')] } });
        return json(200, { name: `projects/${opts.projectId}/messages/0:${randomBytes(6).toString('hex')}` });
      }
      return json(404, { error: { code: 404, status: 'NOT_FOUND' } });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const serverUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: serverUrl,
    received,
    tokenCalls: () => tokenCalls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A browser's push subscription: its keys stay here to decrypt what the receiver gets. */
export function makeSubscription(baseUrl: string, id: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16).toString('base64url');
  return { ecdh, auth, json: JSON.stringify({ endpoint: `${baseUrl}/push/${id}`, expirationTime: null, keys: { p256dh: ecdh.getPublicKey('base64url'), auth } }) };
}

/**
 * Web Push receiver: `POST /push/{id}`; checks the VAPID Authorization (`vapid t=<ES256 JWT>,
 * k=<public key>`: k is the sender's key, aud is this origin, sub is `subject`, exp within 24
 * hours), Content-Encoding aes128gcm and TTL, decrypts the body with the subscription's keys;
 * 410 for `gone` ids, 201 otherwise.
 */
export async function startWebPushReceiver(opts: { tls: TlsMaterial; vapidPublicKey: string; subject: string; gone: Set<string> }) {
  const received: Received[] = [];
  const decrypted: { id: string; payload: unknown }[] = [];
  const keys = new Map<string, { ecdh: ReturnType<typeof createECDH>; auth: string }>();
  const server = https.createServer({ key: opts.tls.key, cert: opts.tls.cert }, (req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const path = req.url ?? '';
      received.push({ path, headers: req.headers, body: raw.toString('base64') });
      const reply = (status: number) => {
        res.writeHead(status);
        res.end();
      };
      const id = /^\/push\/([\w-]+)$/.exec(path)?.[1];
      if (req.method !== 'POST' || !id || !keys.has(id)) return reply(404);
      const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(String(req.headers.authorization ?? ''));
      if (!m || m[2] !== opts.vapidPublicKey) return reply(401);
      const point = Buffer.from(m[2], 'base64url');
      const jwk = { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') };
      try {
        const { payload } = await jwtVerify(m[1]!, await importJWK(jwk, 'ES256'), { algorithms: ['ES256'], audience: serverUrl, subject: opts.subject });
        if (typeof payload.exp !== 'number' || payload.exp > Date.now() / 1000 + 24 * 3600) throw new Error('exp');
      } catch {
        return reply(403);
      }
      if (req.headers['content-encoding'] !== 'aes128gcm' || !req.headers.ttl) return reply(400);
      if (opts.gone.has(id)) return reply(410);
      const sub = keys.get(id)!;
      const plain = ece.decrypt(raw, { version: 'aes128gcm', privateKey: sub.ecdh, authSecret: sub.auth });
      decrypted.push({ id, payload: JSON.parse(plain.toString('utf8')) });
      return reply(201);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const serverUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: serverUrl,
    received,
    decrypted,
    /** A new subscription at this receiver whose pushes it can decrypt. */
    subscribe(id: string) {
      const sub = makeSubscription(serverUrl, id);
      keys.set(id, { ecdh: sub.ecdh, auth: sub.auth });
      return sub.json;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
