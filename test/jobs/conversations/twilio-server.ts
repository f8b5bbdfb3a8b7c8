/**
 * A local server speaking Twilio's Messages API (the part Caretaker uses): POST
 * /2010-04-01/Accounts/{AccountSid}/Messages.json with HTTP basic auth (account SID and auth
 * token) and a form body (To, From or MessagingServiceSid, Body, StatusCallback), answered 201
 * with the message resource as Twilio returns it; 401 with Twilio's error body for wrong
 * credentials, 400 with code 21211 for a number that is not one. Also the signer of the requests
 * Twilio makes (X-Twilio-Signature), written here from Twilio's description, not taken from src.
 */
import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SentSms {
  to: string;
  from: string | null;
  body: string;
  statusCallback: string | null;
  sid: string;
}

/** Starts the server on a free loopback port. */
export async function startTwilioServer(accountSid: string, authToken: string) {
  const sent: SentSms[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method !== 'POST' || req.url !== `/2010-04-01/Accounts/${accountSid}/Messages.json`) return json(404, { code: 20404, message: 'The requested resource was not found', status: 404 });
      const expected = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
      if (req.headers.authorization !== expected) return json(401, { code: 20003, message: 'Authentication Error - invalid username', status: 401 });
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const to = form.get('To') ?? '';
      if (!/^\+[1-9]\d{6,14}$/.test(to)) return json(400, { code: 21211, message: `The 'To' number ${to} is not a valid phone number.`, status: 400 });
      const sid = `SM${randomBytes(16).toString('hex')}`;
      const body = form.get('Body') ?? '';
      sent.push({ to, from: form.get('From'), body, statusCallback: form.get('StatusCallback'), sid });
      json(201, {
        account_sid: accountSid, api_version: '2010-04-01', body, date_created: new Date().toUTCString(), date_sent: null, date_updated: new Date().toUTCString(),
        direction: 'outbound-api', error_code: null, error_message: null, from: form.get('From'), messaging_service_sid: form.get('MessagingServiceSid'),
        num_media: '0', num_segments: String(Math.max(1, Math.ceil(body.length / 153))), price: null, price_unit: 'GBP', sid, status: 'queued',
        to, uri: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}.json`,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sent,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** X-Twilio-Signature: base64 HMAC-SHA1 (auth token) of the URL followed by each parameter's name and value, names sorted. */
export function signTwilio(authToken: string, url: string, params: Record<string, string>): string {
  let data = url;
  for (const k of Object.keys(params).sort()) data += k + params[k];
  return createHmac('sha1', authToken).update(data).digest('base64');
}
