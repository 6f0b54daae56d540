/*
 * How a person looks where the app shows who is there (the editor's carets and avatars, the change request's
 * "in the editor now"): their initials on their colour, the same colour everywhere, chosen by their id.
 */

/** Dark enough for white text (4.5:1 and more) and told apart from each other. */
const COLORS = ['#1f5fbf', '#a3262a', '#1d6b3a', '#7a3fa6', '#8a4b08', '#0e6470', '#b0306e', '#4b5563'];

export function personColor(userId: string): string {
  let hash = 0;
  for (const char of userId) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return COLORS[hash % COLORS.length]!;
}

/** Initials of a name for an avatar: the first letters of its first two words. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  return (words.length > 1 ? words[0]![0]! + words[1]![0]! : (words[0] ?? '?').slice(0, 2)).toUpperCase();
}
