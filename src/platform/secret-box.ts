import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { AppContext } from './context.ts';
import { loadServerSecret } from './secret-store.ts';

/**
 * Secrets the server must read back (an integration's `secrets`, the key its event deliveries are signed with)
 * are stored sealed: AES-256-GCM under a server-wide key kept in server_secrets, so that every process sharing
 * one database opens what another sealed. Sealed text is `v1.` + base64url(iv (12 bytes) | ciphertext | tag
 * (16 bytes)); the version prefix leaves room for another scheme without guessing.
 */
const PREFIX = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

async function boxKey(ctx: Pick<AppContext, 'db' | 'clock'>): Promise<Buffer> {
  const key = Buffer.from(await loadServerSecret(ctx.db, 'secret-box', ctx.clock.now().toISOString()), 'base64url');
  if (key.length !== 32) throw new Error('the secret-box key in server_secrets is not 32 bytes');
  return key;
}

export async function sealSecret(ctx: Pick<AppContext, 'db' | 'clock'>, plain: string): Promise<string> {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', await boxKey(ctx), iv);
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, ciphertext, cipher.getAuthTag()]).toString('base64url');
}

/** The plain text of a sealed secret; throws when it was not sealed with this server's key or was altered. */
export async function openSecret(ctx: Pick<AppContext, 'db' | 'clock'>, sealed: string): Promise<string> {
  if (!sealed.startsWith(PREFIX)) throw new Error('not a sealed secret (expected the v1. prefix)');
  const bytes = Buffer.from(sealed.slice(PREFIX.length), 'base64url');
  if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error('sealed secret too short');
  const decipher = createDecipheriv('aes-256-gcm', await boxKey(ctx), bytes.subarray(0, IV_BYTES));
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
}
