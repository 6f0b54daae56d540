import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Opaque random identifier (20 characters, ~119 bits), the shape GitBook's ids have. */
export function newId(length = 20): string {
  const bytes = randomBytes(length * 2);
  let id = '';
  // Rejection sampling keeps every character equally likely (248 = 4 * 62).
  for (let i = 0; i < bytes.length && id.length < length; i++) {
    const b = bytes[i]!;
    if (b < 248) id += ALPHABET[b % 62];
  }
  return id.length === length ? id : newId(length);
}
