/**
 * Test helpers of the users area: a real SMTP server (smtp-server) that collects messages, and
 * readers for the messages and the .eml files of the file transport.
 */
import { readdir, readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/** Starts an SMTP server on a free port (no TLS, auth optional) collecting every message. */
export async function startSmtpServer() {
  const messages: ReceivedMail[] = [];
  /** User names that authenticated (SMTP AUTH). */
  const logins: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    hideSTARTTLS: true,
    disableReverseLookup: true,
    logger: false,
    authMethods: ['PLAIN', 'LOGIN'],
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      logins.push(auth.username ?? '');
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    logins,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Undoes quoted-printable soft line breaks and escapes, so a long link reads as one line. */
export function decodeQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The token of the first `token=<64 hex>` link in a raw message. */
export function tokenFrom(raw: string): string {
  const match = /token=([0-9a-f]{64})/.exec(decodeQuotedPrintable(raw));
  if (!match?.[1]) throw new Error(`no token in message:\n${raw}`);
  return match[1];
}

/** Polls `probe` until it returns a value other than undefined (or fails after `timeoutMs`). */
export async function waitFor<T>(probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 5_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The .eml files in a folder, oldest first, with their text. */
export async function readEmlFiles(dir: string): Promise<Array<{ file: string; raw: string }>> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.eml')).sort();
  return Promise.all(names.map(async (n) => ({ file: n, raw: await readFile(path.join(dir, n), 'utf8') })));
}

/** Message whose headers name `to` as recipient, from a list of raw messages. */
export function mailTo<T extends { raw: string }>(messages: T[], to: string): T | undefined {
  return messages.find((m) => new RegExp(`^To: .*${to.replace(/[.+]/g, '\\$&')}`, 'mi').test(m.raw));
}
