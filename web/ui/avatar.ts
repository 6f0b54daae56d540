/*
 * How a person looks where the app shows who is there (the editor's carets and avatars, the change request's
 * "in the editor now"): their initials on their colour, the same colour everywhere, chosen by their id (the server
 * gives the editors' awareness states the same one).
 */

export { personColor } from '../../src/features/collaboration/collaborator.ts';

/** Initials of a name for an avatar: the first letters of its first two words. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  return (words.length > 1 ? words[0]![0]! + words[1]![0]! : (words[0] ?? '?').slice(0, 2)).toUpperCase();
}
