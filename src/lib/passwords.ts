/**
 * Password hashing with argon2id (docs/security.md promise 11): m = 19 MiB, t = 2, p = 1 (OWASP's
 * minimum), through @node-rs/argon2 (prebuilt native binding, no build step).
 */
import { hash, verify } from '@node-rs/argon2';

// Algorithm.Argon2id of @node-rs/argon2 (a const enum, so written as its value).
const ARGON2ID = 2;

const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Passwords of 8 to 128 characters, Unicode kept as given (no normalisation, no truncation). */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** Hashes a password; returns the PHC string ($argon2id$v=19$m=19456,t=2,p=1$...). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** True when `password` matches `phc`; false for a wrong password or a malformed hash. */
export async function verifyPassword(phc: string, password: string): Promise<boolean> {
  try {
    return await verify(phc, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same time as a real verification, for an unknown e-mail (promise 12: comparable time
 * for an unknown e-mail and a wrong password). Always resolves false.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('caretaker-dummy-password-for-timing');
  await verifyPassword(await dummyHash, password);
  return false;
}
