import { detect } from 'tinyld/light';

/*
 * How a question and its answer are judged, for the site's "Questions" screen and the official filters: plain
 * rules on the words asked and on what the answer found, so that a writer can tell why a question is where it is
 * (a second call to the model for each answer would double its cost and still be a guess).
 */

export type QuestionType = 'exploring' | 'how-to' | 'troubleshooting' | 'reference' | 'unknown';
export type Relevance = 'relevant' | 'spam' | 'off-topic' | 'unclear';
export type Resolution = 'yes' | 'partially' | 'no';
export type Helpfulness = 'low' | 'medium' | 'high';

/** The text that groups questions: lowercase, single spaces, without the punctuation that closes it. */
export function questionKey(question: string): string {
  return normalizedQuestion(question).toLowerCase();
}

/** The question as shown: single spaces, trimmed, at most 512 characters. */
export function normalizedQuestion(question: string): string {
  return question.replace(/\s+/g, ' ').trim().replace(/[\s?!.…]+$/u, '').slice(0, 512);
}

const TROUBLESHOOTING = /\b(error|errors|fail|fails|failed|failing|failure|broken|bug|crash\w*|not work\w*|doesn'?t|does not|don'?t|can'?t|cannot|can not|won'?t|unable|wrong|issue|problem|stuck|missing|denied|refused|timeout|timed out|why (is|does|do|did|am|are|can'?t))\b/i;
const HOW_TO = /^(how\b|how's\b)|\bhow (do|can|should|would|to)\b|\b(steps? to|way to|guide to)\b|^(create|add|set up|setup|configure|enable|disable|install|connect|delete|remove|change|update|publish|import|export|invite|use)\b/i;
const REFERENCE = /^(what (is|are|does)( the)? (default|maximum|minimum|max|min|limit|format|syntax|value|list|size|name)|which\b|list\b|where\b)|\b(default|limit|limits|maximum|minimum|max|syntax|parameter|parameters|option|options|field|fields|endpoint|api|version|format|reference|shortcut|keyboard)\b/i;
const EXPLORING = /^(what|can|is|are|does|do|should|could|why|tell me|explain|overview|compare|difference)\b|\b(vs\.?|versus|difference between|best|recommend\w*|benefits?|about)\b/i;

/** What kind of question it is, by its words: a problem first (its words are the surest), then a task, a fact, a look around. */
export function questionType(question: string): QuestionType {
  const text = normalizedQuestion(question);
  if (TROUBLESHOOTING.test(text)) return 'troubleshooting';
  if (HOW_TO.test(text)) return 'how-to';
  if (REFERENCE.test(text)) return 'reference';
  if (EXPLORING.test(text)) return 'exploring';
  return 'unknown';
}

/**
 * Whether the question is one the docs could answer: `spam` when it has no words (symbols, a link alone, one
 * letter repeated), `unclear` when it is one short word, `off-topic` when the docs hold nothing near it,
 * `relevant` otherwise (the docs may still not answer it: that is `answered`).
 */
export function questionRelevance(question: string, excerptsFound: number): Relevance {
  const text = normalizedQuestion(question);
  const words = text.match(/\p{L}[\p{L}\p{N}'’-]*/gu) ?? [];
  const withoutLinks = text.replace(/\bhttps?:\/\/\S+/gi, '').trim();
  if (words.length === 0 || withoutLinks === '' || /^(.)\1{3,}$/u.test(text.replace(/\s/g, ''))) return 'spam';
  if (excerptsFound === 0) return words.length === 1 && words[0]!.length < 4 ? 'unclear' : 'off-topic';
  if (words.length === 1 && words[0]!.length < 3) return 'unclear';
  return 'relevant';
}

/** Whether the answer answered: `no` when the docs did not cover it, `partially` when it cites no page, `yes` when it does. */
export function answerResolution(covered: boolean, citedPages: number): Resolution {
  if (!covered) return 'no';
  return citedPages > 0 ? 'yes' : 'partially';
}

/** How helpful the answer was: the reader's rating when they gave one, else what the answer found. */
export function answerHelpfulness(answered: Resolution, rating: number | null): Helpfulness {
  if (rating === 1) return 'high';
  if (rating === -1) return 'low';
  return answered === 'yes' ? 'high' : answered === 'partially' ? 'medium' : 'low';
}

/**
 * The ISO 639-1 code of the question's language (tinyld's light model: 68 kB, no dependencies, made for short texts); a
 * question of fewer than three words is too short to tell, and takes the site's language.
 */
export function questionLanguage(question: string, siteLanguage: string): string {
  const words = normalizedQuestion(question).match(/\p{L}+/gu) ?? [];
  if (words.length < 3) return siteLanguage;
  return detect(question) || siteLanguage;
}
