/**
 * An emoji as the API stores it ("1f389", "1f468-200d-1f4bb", or the character itself) as the character, or
 * null when it is neither.
 */
export function emojiCharacter(value: unknown): string | null {
  if (typeof value !== 'string' || value === '' || value.length > 50) return null;
  if (/^[0-9a-f]{2,6}(?:[-_ ][0-9a-f]{2,6})*$/i.test(value)) {
    const points = value.split(/[-_ ]/).map((part) => Number.parseInt(part, 16));
    if (points.every((p) => p > 0 && p <= 0x10ffff && (p < 0xd800 || p > 0xdfff))) return String.fromCodePoint(...points);
    return null;
  }
  // Already a character: keep it only if it has no markup-looking or control content.
  return /^[^\s<>&"'\w]+$/u.test(value) ? value : null;
}
