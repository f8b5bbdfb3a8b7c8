/**
 * The browser's side of passkeys (docs/security.md "Passkeys"; WebAuthn Level 3 through
 * @simplewebauthn/browser): creating one from the API's creation options, and answering the
 * request options of a sign-in (POST /api/auth/passkey/options: password-less, or for the
 * challenge of a second-factor step). The browser's own refusals (cancelled, timed out, no
 * passkey for this site) come back as an Error in people's words.
 */
import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  WebAuthnError,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/browser';

/** True when this browser can use passkeys at all. */
export function passkeysSupported(): boolean {
  return browserSupportsWebAuthn();
}

/** The browser's refusal in words (cancelled or timed out are the usual ones). */
function inWords(err: unknown): Error {
  const name = err instanceof WebAuthnError ? (err.cause as Error | undefined)?.name : (err as Error | undefined)?.name;
  if (name === 'NotAllowedError' || name === 'AbortError') return new Error('The passkey prompt was closed or timed out. Try again when you are ready.');
  if (err instanceof WebAuthnError && err.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED')
    return new Error('This device already holds a passkey for your account.');
  return new Error(`The browser could not use a passkey: ${(err as Error | undefined)?.message ?? String(err)}`);
}

/**
 * Asks the browser (and its authenticator) for a new passkey.
 * @param options the data of POST /api/users/me/passkeys/options
 * @returns the RegistrationResponseJSON for POST /api/users/me/passkeys
 * @throws Error in words when the browser refuses or the person cancels
 */
export async function createPasskey(options: unknown): Promise<RegistrationResponseJSON> {
  try {
    return await startRegistration({ optionsJSON: options as PublicKeyCredentialCreationOptionsJSON });
  } catch (err) {
    throw inWords(err);
  }
}

/**
 * A passkey sign-in's answer: asks POST /api/auth/passkey/options (no CSRF token: no one is signed
 * in yet), then the browser for an assertion.
 * @param body { challenge } of a second-factor step, or { remember_me } for a password-less sign-in
 * @returns the challenge to send back with the assertion to POST /api/auth/session
 * @throws Error with `status` when the API refuses (401 the challenge expired, 429), or in words when the browser does
 */
export async function passkeyAssertion(body: {
  challenge?: string;
  remember_me?: boolean;
}): Promise<{ challenge: string; passkey: AuthenticationResponseJSON }> {
  const res = await fetch('/api/auth/passkey/options', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json().catch(() => null)) as { data?: { challenge: string; options: unknown }; message?: string; error?: string } | null;
  if (!res.ok || !json?.data) {
    throw Object.assign(new Error(json?.message ?? json?.error ?? 'The passkey sign-in could not start'), {
      status: res.status,
      retryAfterSeconds: Number(res.headers.get('retry-after') ?? '1'),
    });
  }
  try {
    const passkey = await startAuthentication({ optionsJSON: json.data.options as PublicKeyCredentialRequestOptionsJSON });
    return { challenge: json.data.challenge, passkey };
  } catch (err) {
    throw inWords(err);
  }
}
