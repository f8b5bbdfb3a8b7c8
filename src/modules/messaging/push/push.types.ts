/** Types shared by the push providers (docs/push.md). */
/** One push message, already rendered from its template. */
export interface PushMessage {
  userId: number;
  title: string;
  body: string;
  /** Small string map delivered with the message (e.g. job_uuid); never personal data beyond the title and body. */
  data?: Record<string, string>;
}

/** Outcome for one device token. */
export interface PushResult {
  deviceTokenId: number;
  platform: string;
  status: 'sent' | 'failed' | 'removed';
  error?: string;
}

/** One stored device token to deliver to. */
export interface PushTarget {
  id: number;
  token: string;
  platform: 'ios' | 'android' | 'web';
}

/**
 * A provider's verdict for one token: delivered, failed (kept; the error says why), or reported
 * unregistered or invalid by the provider (the token is removed).
 */
export type PushOutcome = { status: 'sent' } | { status: 'failed'; error: string } | { status: 'unregistered'; error: string };

/** An open connection to one provider for one batch of tokens. */
export interface PushSender {
  /** Sends to one token; never throws (errors become a failed outcome). */
  send(target: PushTarget, message: PushMessage): Promise<PushOutcome>;
  /** Releases connections. */
  close(): void;
}

/**
 * Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a character (providers cap
 * payloads at 4 KiB).
 */
export function clipBytes(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  let out = '';
  let used = 0;
  for (const ch of text) {
    const size = Buffer.byteLength(ch);
    if (used + size > maxBytes - 3) break;
    out += ch;
    used += size;
  }
  return `${out}…`;
}

/** The error text of an unknown thrown value. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
