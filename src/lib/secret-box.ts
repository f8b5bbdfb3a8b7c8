/**
 * Secrets kept encrypted at rest (docs/security.md "Secrets at rest"): a value the server must read
 * back (an authenticator app's TOTP secret) is stored as AES-256-GCM ciphertext under the
 * instance's secrets key, so a database dump or backup alone does not give it away. The key is
 * CARETAKER_SECRETS_KEY (32 bytes, base64 or hex); unset, it is the file `secrets.key` in
 * CARETAKER_DATA_DIR, made on the first start (instances that share a database must share the key:
 * set the variable). Stored form: `enc:v1:<iv>.<ciphertext>.<tag>`, each part base64url.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

const PREFIX = 'enc:v1:';
/** Bytes of the key (AES-256). */
export const SECRETS_KEY_BYTES = 32;

/** Encrypts and decrypts stored secrets with one key; see the file's comment. */
export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== SECRETS_KEY_BYTES) throw new Error(`the secrets key must be ${SECRETS_KEY_BYTES} bytes (got ${key.length})`);
    this.#key = key;
  }

  /** True when `stored` is in the encrypted form (not a value written before encryption). */
  static isSealed(stored: string): boolean {
    return stored.startsWith(PREFIX);
  }

  /** The stored form of `plain`: a fresh 96-bit IV each time, so equal values differ when stored. */
  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${PREFIX}${iv.toString('base64url')}.${body.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
  }

  /**
   * The plain value of a stored one. A value not in the encrypted form (written before encryption,
   * not yet reached by the backfill) is returned as it is.
   * @throws Error when the value was sealed under another key or altered
   */
  open(stored: string): string {
    if (!SecretBox.isSealed(stored)) return stored;
    const [iv, body, tag] = stored.slice(PREFIX.length).split('.');
    if (iv === undefined || body === undefined || tag === undefined) throw new Error('a stored secret is malformed');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    try {
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new Error('a stored secret does not open with this instance\'s secrets key (CARETAKER_SECRETS_KEY or secrets.key in CARETAKER_DATA_DIR)');
    }
  }
}

/**
 * Reads a key given as 64 hex characters or as base64 of 32 bytes.
 * @returns the key, or null when `text` is neither
 */
export function parseSecretsKey(text: string): Buffer | null {
  const t = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(t)) return Buffer.from(t, 'hex');
  const b = Buffer.from(t, 'base64');
  return b.length === SECRETS_KEY_BYTES && /^[A-Za-z0-9+/_-]+={0,2}$/.test(t) ? b : null;
}

/**
 * The instance's secrets key: `configured` when set; an in-memory key for an in-memory database
 * (tests: the data goes with it); else `<dataDir>/secrets.key`, made (32 random bytes, base64, mode
 * 0600) when missing.
 * @throws Error when the key file holds no valid key
 */
export function loadSecretsKey(configured: Buffer | undefined, dataDir: string): Buffer {
  if (configured) return configured;
  if (dataDir.startsWith('memory://')) return randomBytes(SECRETS_KEY_BYTES);
  const file = path.join(dataDir, 'secrets.key');
  try {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, `${randomBytes(SECRETS_KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const key = parseSecretsKey(readFileSync(file, 'utf8'));
  if (!key) throw new Error(`${file} holds no secrets key (32 bytes, base64 or hex)`);
  return key;
}
