import { sha1 as sha1Js } from '@noble/hashes/legacy';
import { sha256 as sha256Js } from '@noble/hashes/sha2';

/*
 * The digests behind block keys (keys.ts) and kept markdown source (nodes.ts), in base64url, the same in Node
 * and in a browser: the web app reads pasted markdown with the server's reader (to-document.ts), and its blocks
 * must get the keys and digests the server would give them. Node's own crypto is several times faster on
 * these short inputs, so the server uses it; a browser (no `process`) uses @noble/hashes, pure JavaScript.
 * `process.getBuiltinModule` reaches node:crypto without an import a browser build would have to resolve.
 */

// The two functions used, typed here: the web app's typecheck has no Node types.
interface NodeCrypto {
  hash(algorithm: string, data: string, encoding: 'base64url'): string;
  createHash(algorithm: string): { update(data: string): { digest(encoding: 'base64url'): string } };
}
const nodeCrypto = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;

const encoder = new TextEncoder();
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Base64url without padding, as Node's `'base64url'` encoding writes it. */
export function base64url(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i]!, b = bytes[i + 1], c = bytes[i + 2];
    out += ALPHABET[a >> 2]! + ALPHABET[((a & 3) << 4) | ((b ?? 0) >> 4)]!;
    if (b !== undefined) out += ALPHABET[((b & 15) << 2) | ((c ?? 0) >> 6)]!;
    if (c !== undefined) out += ALPHABET[c & 63]!;
  }
  return out;
}

/** The browser's digests (exported for the test that holds them equal to Node's). */
export const pureSha256 = (value: string): string => base64url(sha256Js(encoder.encode(value)));
export const pureSha1 = (value: string): string => base64url(sha1Js(encoder.encode(value)));

/** SHA-256 of a string's UTF-8 bytes, base64url. */
export const sha256 = nodeCrypto ? (value: string): string => nodeCrypto.hash('sha256', value, 'base64url') : pureSha256;

/** SHA-1 of a string's UTF-8 bytes, base64url. */
export const sha1 = nodeCrypto ? (value: string): string => nodeCrypto.createHash('sha1').update(value).digest('base64url') : pureSha1;
