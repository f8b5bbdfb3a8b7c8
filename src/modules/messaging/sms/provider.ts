/** The SMS provider interface (docs/conversations.md "SMS"): one adapter per provider (twilio.ts). */

/** What a provider reports when it accepted a message. */
export interface SmsSendResult {
  /** The provider's id of the message (its status callbacks name it). */
  sid: string;
  status: string;
  segments: number | null;
}

/** Sends one SMS. */
export interface SmsProvider {
  readonly name: string;
  /** The sender as recorded in the log. */
  readonly from: string;
  /**
   * Hands one message to the provider.
   * @param msg E.164 recipient, text, and the URL the provider reports delivery to
   * @throws SmsSendError when the provider refuses it (permanent: retrying cannot help)
   */
  send(msg: { to: string; body: string; statusCallback?: string | undefined }): Promise<SmsSendResult>;
}

/** A provider's refusal. */
export class SmsSendError extends Error {
  readonly code: string | null;
  readonly permanent: boolean;
  /** The recipient unsubscribed at the provider (replied STOP). */
  readonly unsubscribed: boolean;

  constructor(message: string, o: { code: string | null; permanent: boolean; unsubscribed: boolean }) {
    super(message);
    this.code = o.code;
    this.permanent = o.permanent;
    this.unsubscribed = o.unsubscribed;
  }
}
