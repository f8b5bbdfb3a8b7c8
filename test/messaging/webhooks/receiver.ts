/**
 * A local webhook receiver for the tests: records every request (headers and raw body) and
 * answers with the next status of a script (then the default), like a real receiving system.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { vi } from 'vitest';
import { Webhook } from 'standardwebhooks';

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** Starts a receiver on 127.0.0.1. */
export async function startReceiver() {
  const received: Received[] = [];
  const script: number[] = [];
  let fallback = 200;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(script.shift() ?? fallback, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    /** The next answers, in order; then `otherwise`. */
    answer(statuses: number[], otherwise = 200) {
      script.push(...statuses);
      fallback = otherwise;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Verifies a received request with the Standard Webhooks library's own verifier, as the receiver
 * would, at `now` (the test clock: the verifier checks the timestamp against the current time).
 * @returns the parsed payload; throws WebhookVerificationError when the signature does not match
 */
export function verify(secret: string, r: Received, now: Date): unknown {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(now);
  try {
    return new Webhook(secret).verify(r.body, {
      'webhook-id': r.headers['webhook-id']!,
      'webhook-timestamp': r.headers['webhook-timestamp']!,
      'webhook-signature': r.headers['webhook-signature']!,
    });
  } finally {
    vi.useRealTimers();
  }
}
