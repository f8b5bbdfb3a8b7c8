/** Tokens, hashes and signatures: secret tokens from the CSPRNG, SHA-256 and HMAC digests, comparisons in constant time (docs/security.md). */
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/**
 * Creates a new secret token: 32 bytes from the CSPRNG as 64 lower-case hex characters
 * (spec 5.1 rule 2, docs/security.md promise 1).
 */
export function newToken(): string {
  return randomBytes(32).toString('hex');
}

/** SHA-256 of a token as 64 lower-case hex characters: the only form a token is stored in. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** SHA-256 of a byte buffer as hex (file integrity). */
export function sha256Hex(data: Buffer | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Constant-time comparison of two strings of any length. */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

/** A random UUID v4 for public identifiers. */
export function newUuid(): string {
  return randomUUID();
}

/** True when `value` looks like a 64-character hex token (cheap pre-check before a lookup). */
export function isTokenShaped(value: string): boolean {
  return /^[0-9a-f]{64}$/.test(value);
}

/**
 * HMAC-SHA256 of `message` under `secret`, as base64url: the signature of a link sent to a
 * person without an account (docs/landlords.md "Signed links").
 */
export function hmacSign(secret: string, message: string): string {
  return createHmac('sha256', secret).update(message, 'utf8').digest('base64url');
}

/** Constant-time check of an `hmacSign` signature. */
export function hmacVerify(secret: string, message: string, signature: string): boolean {
  return safeEqual(hmacSign(secret, message), signature);
}
