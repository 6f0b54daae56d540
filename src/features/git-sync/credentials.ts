import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/*
 * A repository URL may carry credentials (`https://user:token@host/repo.git`, as the official operations allow).
 * The job that uses it reads it from its payload, so the payload holds it sealed (AES-256-GCM with a server
 * secret), never in clear; what is stored on the space and shown is the URL without them.
 */

function keyOf(secret: string): Buffer {
  return createHash('sha256').update(`git-sync-credentials:${secret}`).digest();
}

export function sealUrl(secret: string, url: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret), iv);
  const body = Buffer.concat([cipher.update(url, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
}

export function openUrl(secret: string, sealed: string): string {
  const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !body) throw new Error('sealed repository URL is malformed');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(secret), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
}
