import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signature of a delivery (docs/integration-events.md), as Stripe signs webhooks: HMAC-SHA256, keyed with
 * the integration's signing secret, of `<unix seconds>.<body>`, sent as `X-Quire-Signature: t=<unix>,v1=<hex>`.
 * The timestamp is signed with the body so that a captured delivery cannot be replayed later than the
 * receiver's tolerance.
 */
export const SIGNATURE_HEADER = 'x-quire-signature';

export function signatureOf(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

export function signatureHeader(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${signatureOf(secret, timestamp, body)}`;
}

export type SignatureCheck = { valid: true; timestamp: number } | { valid: false; reason: string };

/**
 * What a receiver does with a delivery: parse the header, recompute the HMAC over the raw body, compare in
 * constant time, and refuse a timestamp further than `toleranceSeconds` from its own clock.
 */
export function verifySignature(secret: string, header: string | undefined, body: string, nowSeconds: number, toleranceSeconds = 300): SignatureCheck {
  if (!header) return { valid: false, reason: 'no signature header' };
  const parts = new Map<string, string[]>();
  for (const item of header.split(',')) {
    const at = item.indexOf('=');
    if (at <= 0) continue;
    const key = item.slice(0, at).trim();
    parts.set(key, [...(parts.get(key) ?? []), item.slice(at + 1).trim()]);
  }
  const timestamp = Number(parts.get('t')?.[0]);
  if (!Number.isInteger(timestamp)) return { valid: false, reason: 'no timestamp (t=) in the signature header' };
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) return { valid: false, reason: 'the timestamp is outside the tolerance' };
  const expected = Buffer.from(signatureOf(secret, timestamp, body), 'hex');
  // Several v1 values may be sent while a secret is being rotated: any one matching is enough.
  for (const candidate of parts.get('v1') ?? []) {
    const given = Buffer.from(candidate, 'hex');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return { valid: true, timestamp };
  }
  return { valid: false, reason: 'no v1 signature matches the body' };
}
