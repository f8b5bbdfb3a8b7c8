/**
 * Passkeys (WebAuthn Level 3, through @simplewebauthn/server; docs/security.md "Passkeys"):
 * registering one while signed in, signing in with one password-less, and answering a
 * second-factor challenge with one. The relying party is the host of CARETAKER_PUBLIC_URL and the
 * expected origin its scheme, host and port.
 */
import type { AuthenticationResponseJSON, AuthenticatorTransportFuture, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { AppError, conflict, notFound } from '../../../core/errors.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import type { TokenKind } from '../../../db/schema.ts';
import { addSeconds } from '../../../lib/clock.ts';
import { hashToken, newToken, newUuid } from '../../../lib/crypto.ts';
import { attachWebauthnChallenge, CHALLENGE_TTL_S, newPasskeyLoginChallenge, policyRequires, staleChallenge } from './two-factor.service.ts';
import * as repo from './two-factor.repository.ts';

type Caller = Actor & { auth: AuthContext };

/**
 * @simplewebauthn/server, loaded at the first passkey request: with its X.509 and ASN.1 parsers it
 * is about two hundred modules no other request needs, kept off the server's start
 * (docs/operations.md "Starting").
 */
async function webauthn() {
  const [server, { isoBase64URL }] = await Promise.all([import('@simplewebauthn/server'), import('@simplewebauthn/server/helpers')]);
  return { ...server, isoBase64URL };
}

/** The relying party: id (host) and the origin the browser reports. */
function relyingParty(deps: AppDeps): { rpID: string; origin: string } {
  const url = new URL(deps.config.mail.publicUrl);
  return { rpID: url.hostname, origin: url.origin };
}

const transportsOf = (t: string[]) => t as AuthenticatorTransportFuture[];

/**
 * POST /api/users/me/passkeys/options: the creation options for a new passkey of the caller
 * (PublicKeyCredentialCreationOptionsJSON), its challenge kept for CHALLENGE_TTL_S.
 */
export async function passkeyRegistrationOptions(deps: AppDeps, caller: Caller) {
  const { generateRegistrationOptions, isoBase64URL } = await webauthn();
  const { rpID } = relyingParty(deps);
  const existing = await repo.listPasskeys(deps.db, caller.auth.userId);
  const options = await generateRegistrationOptions({
    rpName: 'Caretaker',
    rpID,
    userName: caller.auth.email,
    userDisplayName: caller.auth.name,
    userID: isoBase64URL.toBuffer(isoBase64URL.fromUTF8String(caller.auth.userUuid)),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: transportsOf(p.transports) })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  const now = deps.clock.now();
  await repo.insertChallenge(deps.db, {
    challengeHash: hashToken(newToken()),
    userId: caller.auth.userId,
    purpose: 'passkey_register',
    credential: null,
    rememberMe: false,
    webauthnChallenge: options.challenge,
    totpSecret: null,
    createdAt: now,
    expiresAt: addSeconds(now, CHALLENGE_TTL_S),
  });
  return options;
}

/**
 * POST /api/users/me/passkeys: verifies the browser's answer to the newest creation options and
 * stores the passkey.
 * @param input { response: RegistrationResponseJSON, name? }
 * @returns the passkey { id, name, created_at, last_used_at }
 * @throws 409 no options pending; 400 the answer does not verify (wrong origin, challenge, ...)
 */
export async function registerPasskey(deps: AppDeps, caller: Caller, input: { response: Record<string, unknown>; name?: string | undefined }) {
  const { verifyRegistrationResponse, isoBase64URL } = await webauthn();
  const now = deps.clock.now();
  const pending = await repo.latestChallenge(deps.db, caller.auth.userId, 'passkey_register', now);
  if (!pending?.webauthn_challenge) throw conflict('Ask for passkey options first (POST /api/users/me/passkeys/options)');
  const { rpID, origin } = relyingParty(deps);
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response: input.response as unknown as RegistrationResponseJSON,
      expectedChallenge: pending.webauthn_challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    });
  } catch (err) {
    await recordActivity(deps.db, caller, now, { action: 'user.passkey_add_failed', resourceType: 'user', resourceId: caller.auth.userId, details: { error: String((err as Error).message).slice(0, 200) } });
    throw new AppError('bad_request', 'The passkey could not be verified');
  }
  if (!verification.verified || !verification.registrationInfo) throw new AppError('bad_request', 'The passkey could not be verified');
  const cred = verification.registrationInfo.credential;
  if (await repo.findPasskeyByCredential(deps.db, cred.id)) throw conflict('This passkey is already registered');
  const uuid = newUuid();
  const name = (input.name ?? '').trim().slice(0, 100) || 'Passkey';
  await deps.db.transaction().execute(async (trx) => {
    await repo.useChallenge(trx, pending.id, now);
    await repo.insertPasskey(trx, {
      uuid, userId: caller.auth.userId, credentialId: cred.id, publicKey: isoBase64URL.fromBuffer(cred.publicKey),
      counter: cred.counter, transports: cred.transports ?? [], name, at: now,
    });
    await recordActivity(trx, caller, now, { action: 'user.passkey_add', resourceType: 'user', resourceId: caller.auth.userId, details: { passkey: uuid, name } });
  });
  return { id: uuid, name, created_at: now.toISOString(), last_used_at: null };
}

/**
 * DELETE /api/users/me/passkeys/{id}: removes one of the caller's passkeys. Refused when the
 * policy requires a second factor and it is the caller's last one.
 * @throws 404 not the caller's; 403 the last factor under the policy
 */
export async function removePasskey(deps: AppDeps, caller: Caller, uuid: string) {
  const [passkeys, totp] = await Promise.all([repo.listPasskeys(deps.db, caller.auth.userId), repo.findTotp(deps.db, caller.auth.userId)]);
  if (!passkeys.some((p) => p.uuid === uuid)) throw notFound('Passkey');
  const agencyRequires = caller.auth.agencyId !== null ? await repo.agencyPolicy(deps.db, caller.auth.agencyId) : false;
  const account = { id: caller.auth.userId, email: caller.auth.email, name: caller.auth.name, agency_id: caller.auth.agencyId, role_code: caller.auth.roleCode };
  if (passkeys.length === 1 && !totp?.confirmed_at && policyRequires(deps, account, agencyRequires)) {
    throw new AppError('forbidden', 'Your agency requires a second factor: set up an authenticator app before removing your last passkey');
  }
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await repo.deletePasskey(trx, caller.auth.userId, uuid);
    await recordActivity(trx, caller, now, { action: 'user.passkey_remove', resourceType: 'user', resourceId: caller.auth.userId, details: { passkey: uuid } });
  });
}

/**
 * POST /api/auth/passkey/options: request options (PublicKeyCredentialRequestOptionsJSON) for a
 * passkey sign-in. With `challenge` (a second-factor challenge of a password sign-in) they name
 * that account's passkeys; without, they start a password-less sign-in (any passkey of this site,
 * user verification required) and come with a new challenge for the answer.
 * @returns { challenge, expires_at, options }
 * @throws 401 challenge_expired
 */
export async function passkeyLoginOptions(deps: AppDeps, input: { challenge?: string | undefined; credential: TokenKind; remember_me?: boolean | undefined }) {
  const { generateAuthenticationOptions } = await webauthn();
  const { rpID } = relyingParty(deps);
  if (input.challenge !== undefined) {
    const probe = await generateAuthenticationOptions({ rpID, userVerification: 'preferred' });
    const userId = await attachWebauthnChallenge(deps, input.challenge, probe.challenge);
    const passkeys = await repo.listPasskeys(deps.db, userId);
    if (passkeys.length === 0) throw staleChallenge();
    const options = { ...probe, allowCredentials: passkeys.map((p) => ({ id: p.credential_id, type: 'public-key' as const, transports: transportsOf(p.transports) })) };
    return { challenge: input.challenge, expires_at: null, options };
  }
  const options = await generateAuthenticationOptions({ rpID, userVerification: 'required' });
  const { challenge, expiresAt } = await newPasskeyLoginChallenge(deps, input.credential, input.remember_me === true, options.challenge);
  return { challenge, expires_at: expiresAt.toISOString(), options };
}

/**
 * Verifies a passkey assertion against a WebAuthn challenge (two-factor.service.ts PasskeyCheck).
 * For a second factor the passkey must be `userId`'s; password-less (userId null) it may be anyone's
 * and must carry user verification.
 * @returns the passkey's owner, or null when it does not verify
 */
export async function checkPasskey(deps: AppDeps, assertion: Record<string, unknown>, expectedChallenge: string, userId: number | null): Promise<number | null> {
  const { verifyAuthenticationResponse, isoBase64URL } = await webauthn();
  const id = typeof assertion.id === 'string' ? assertion.id : null;
  if (!id) return null;
  const passkey = await repo.findPasskeyByCredential(deps.db, id);
  if (!passkey || (userId !== null && passkey.user_id !== userId)) return null;
  const { rpID, origin } = relyingParty(deps);
  try {
    const result = await verifyAuthenticationResponse({
      response: assertion as unknown as AuthenticationResponseJSON,
      expectedChallenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: { id: passkey.credential_id, publicKey: isoBase64URL.toBuffer(passkey.public_key), counter: Number(passkey.counter), transports: transportsOf(passkey.transports) },
      requireUserVerification: userId === null,
    });
    if (!result.verified) return null;
    await repo.touchPasskey(deps.db, passkey.id, result.authenticationInfo.newCounter, deps.clock.now());
    return passkey.user_id;
  } catch {
    return null;
  }
}
