import { randomFillSync } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Opaque random identifier (20 characters, ~119 bits), the shape GitBook's ids have. */
export function newId(length = 20): string {
  let id = '';
  // Rejection sampling keeps every character equally likely (248 = 4 * 62).
  while (id.length < length) {
    const b = randomByte();
    if (b < 248) id += ALPHABET[b % 62];
  }
  return id;
}

/**
 * Random bytes drawn from a pool refilled 4 KB at a time: a request makes several ids, and a call into the
 * system's generator for each cost more than the id (as Node does for randomUUID). Each byte is used once.
 */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function randomByte(): number {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++]!;
}
