/**
 * Test helpers of the messaging area: a real SMTP server (smtp-server) that can refuse the next
 * N messages with 451, and readers for what it received.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { dispatchPendingEvents } from '../../../src/events/index.ts';
import { backgroundHandlers } from '../../../src/main/background.ts';
import { sendDueDeliveries } from '../../../src/modules/messaging/messaging/index.ts';
import type { TestApp } from '../../helpers/app.ts';
import { decodeQuotedPrintable } from '../../people/users/mail-helpers.ts';

export interface Received {
  to: string[];
  raw: string;
  /** Subject header (decoded when encoded-word). */
  subject: string;
  /** The message with quoted-printable undone. */
  text: string;
}

/** Starts an SMTP server on a free loopback port; `failNext` refuses that many messages (451). */
export async function startFlakySmtp() {
  const state = { failNext: 0, refused: 0, messages: [] as Received[] };
  const server = new SMTPServer({
    authOptional: true,
    hideSTARTTLS: true,
    disableReverseLookup: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (state.failNext > 0) {
          state.failNext -= 1;
          state.refused += 1;
          const err = new Error('Mailbox busy, try again later') as Error & { responseCode: number };
          err.responseCode = 451;
          callback(err);
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const subjectLine = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)?.[1] ?? '';
        const subject = subjectLine
          .replace(/\r?\n[ \t]/g, ' ')
          .replace(/=\?utf-8\?Q\?(.*?)\?=/gi, (_, q: string) => decodeQuotedPrintable(q.replace(/_/g, ' ')))
          .replace(/\?=\s+=\?/g, '');
        state.messages.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, subject, text: decodeQuotedPrintable(raw) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, state, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Delivers pending events to the handlers, then runs the sender once. */
export async function deliver(t: TestApp) {
  await dispatchPendingEvents(t.deps, backgroundHandlers());
  return sendDueDeliveries(t.deps);
}

/** The delivery rows of an agency, oldest first. */
export function deliveries(t: TestApp, agencyId: number) {
  return t.db.selectFrom('message_deliveries').selectAll().where('agency_id', '=', agencyId).orderBy('id').execute();
}
