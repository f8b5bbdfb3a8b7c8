/**
 * The SMTP listener for replies (docs/conversations.md "Reply by e-mail"), `smtp-server`: started
 * by the server when CARETAKER_INBOUND_SMTP_PORT is set, behind the MX of
 * CARETAKER_INBOUND_EMAIL_DOMAIN. Recipients are checked at RCPT TO: anything but a reply address
 * with a valid signature is refused there (550) and logged. No authentication (it receives mail
 * like any MX); SIZE is CARETAKER_INBOUND_MAX_BYTES. The message is handled before the server
 * answers the DATA command, so a message that could not be stored gets 451 and the sender's
 * server tries again.
 */
import type { AddressInfo } from 'node:net';
import type { AppDeps } from '../../../app-deps.ts';
import { acceptsRecipient, receiveEmail, type InboundLogger } from './inbound.service.ts';

/** A running listener. */
export interface InboundSmtp {
  port: number;
  close(): Promise<void>;
}

function smtpError(message: string, code: number): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

/**
 * Starts the listener.
 * @param opts port (0: any free port) and host; default from config.inboundMail
 * @returns the port it listens on and close()
 */
export async function startInboundSmtp(deps: AppDeps, log: InboundLogger, opts: { port?: number; host?: string } = {}): Promise<InboundSmtp> {
  const cfg = deps.config.inboundMail;
  // Loaded here: a deployment without a reply port never loads the SMTP server library.
  const { SMTPServer } = await import('smtp-server');
  const server = new SMTPServer({
    name: cfg.domain ?? 'caretaker',
    banner: 'Caretaker replies',
    authOptional: true,
    disabledCommands: ['AUTH'],
    hideSTARTTLS: true,
    disableReverseLookup: true,
    size: cfg.maxBytes,
    logger: false,
    onRcptTo(address, _session, callback) {
      acceptsRecipient(deps, address.address).then(
        (ok) => {
          if (ok) return callback();
          log.warn({ address: address.address.toLowerCase(), reason: 'unknown or forged reply address' }, 'inbound e-mail refused');
          callback(smtpError('No such recipient', 550));
        },
        () => callback(smtpError('Try again later', 451)),
      );
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded) return callback(smtpError('Message too large', 552));
        const from = session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address;
        receiveEmail(deps, Buffer.concat(chunks), { to: session.envelope.rcptTo.map((r) => r.address), from }, log).then(
          (r) => (r.outcome === 'refused' ? callback(smtpError('Message refused', 550)) : callback()),
          (err: unknown) => {
            log.warn({ error: err instanceof Error ? err.message : String(err) }, 'inbound e-mail failed; the sender will retry');
            callback(smtpError('Try again later', 451));
          },
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? cfg.smtpPort ?? 0, opts.host ?? cfg.smtpHost, () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
