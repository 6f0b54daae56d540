/*
 * Who a person is to the others in a page (their caret's label and colour, their avatar), the same for the server,
 * which writes it into the awareness states it relays, and for the app, which draws it: the colour is chosen by
 * the person's id, so it is the same everywhere.
 */

export interface Collaborator {
  name: string;
  color: string;
}

/** Dark enough for white text (4.5:1 and more) and told apart from each other. */
const COLORS = ['#1f5fbf', '#a3262a', '#1d6b3a', '#7a3fa6', '#8a4b08', '#0e6470', '#b0306e', '#4b5563'];

export function personColor(userId: string): string {
  let hash = 0;
  for (const char of userId) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return COLORS[hash % COLORS.length]!;
}
