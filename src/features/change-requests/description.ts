import { badRequest } from '../../platform/errors.ts';
import { keyDocument } from '../content/document/keys.ts';
import { blockText } from '../content/document/text.ts';
import type { Document } from '../content/document/types.ts';
import { documentProblem } from '../content/document/validate.ts';

/*
 * A change request's description is a JSON document, as the official API has it (ChangeRequest `description`,
 * set by updateChangeRequestById and requestReviewersForChangeRequest). It is stored as its JSON; a document
 * without blocks is no description, so sending one clears it.
 */

/** The JSON to store for a description sent in `field`, null when it clears the description; 400 when it is not a document. */
export function storedDescription(input: unknown, field: string): string | null {
  const problem = documentProblem(input);
  if (problem !== null) throw badRequest(`${field}${problem.path} ${problem.message}`);
  const document = input as Document;
  if (document.nodes.length === 0) return null;
  // Blocks get keys as a page's do, so a comment or a link can name one of them.
  return JSON.stringify(keyDocument(structuredClone(document)));
}

export function presentedDescription(stored: string | null): Document | undefined {
  return stored === null ? undefined : (JSON.parse(stored) as Document);
}

/** Whether a stored description says something (the merge rule `require_change_request_description`). */
export function hasDescription(stored: string | null): boolean {
  const document = presentedDescription(stored);
  return document !== undefined && document.nodes.some((block) => (block as { isVoid?: boolean }).isVoid === true || blockText(block).trim() !== '');
}
