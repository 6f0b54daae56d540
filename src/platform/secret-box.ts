import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { AppContext } from './context.ts';
import { loadServerSecret } from './secret-store.ts';

/**
 * Secrets kept at rest (integration secrets, their signing secrets) are sealed with AES-256-GCM under a
 * server-wide key from `server_secrets`, so a copy of the database alone does not reveal them, and every process
 * sharing the database opens what another sealed. Format: `v1.` + base64url(iv (12) | ciphertext | tag (16)).
 */
const VERSION = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

async function keyOf(ctx: Pick<AppContext, 'db' | 'clock'>): Promise<Buffer> {
  const key = Buffer.from(await loadServerSecret(ctx.db, 'secret-box', ctx.clock.now().toISOString()), 'base64url');
  if (key.length !== 32) throw new Error('the secret-box key must be 32 bytes');
  return key;
}

export async function sealSecret(ctx: Pick<AppContext, 'db' | 'clock'>, plain: string): Promise<string> {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', await keyOf(ctx), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return VERSION + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
}

export async function openSecret(ctx: Pick<AppContext, 'db' | 'clock'>, sealed: string): Promise<string> {
  if (!sealed.startsWith(VERSION)) throw new Error('unknown sealed secret format');
  const raw = Buffer.from(sealed.slice(VERSION.length), 'base64url');
  if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('sealed secret too short');
  const decipher = createDecipheriv('aes-256-gcm', await keyOf(ctx), raw.subarray(0, IV_BYTES));
  decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
  return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
}
