import { indentedBlock } from './source-markdown.ts';

/*
 * Material's card grid, a list in `<div class="grid cards" markdown>` whose items are cards:
 *   -   :material-clock-fast: __[Set up in 5 minutes][start]__      (or `- :icon: __[Title]__ – text` on one line)
 *       ---
 *       Install `mkdocs-material` with `pip` and get up and running in minutes
 *       ---
 *       [:octicons-arrow-right-24: Getting started](getting-started.md)
 * is GitBook's cards (a table viewed as cards): a card's title is the item's icon and bold title, its description
 * the item's other paragraphs, and its target the title's link (or the link that ends the card). The rules (`---`)
 * only draw lines between those parts of the card. An item holding anything else than paragraphs (code, a list, an
 * image, a footnote's marker) does not fit a card: the grid is then left to the caller, its content kept in order.
 */

const ITEM = /^(?:[-*+]|\d{1,9}[.)])[ \t]+(.*)$/;
/** Tags the converter writes into a line (icons, keys) or an author writes in a sentence; any other is HTML a card cell cannot hold. */
const INLINE_TAG = /<\/?(?:i|kbd|strong|em|code|mark|sup|sub|br)\b[^>]*>/g;
const RULE = /^(?:-{3,}|\*{3,}|_{3,})$/;
/** A leading drawn icon (`<i class="fa-check">:check:</i>`), spaces, and the bold title, perhaps ` – ` and text after it. */
const TITLE = /^((?:<i class="[^"]*">[^<]*<\/i>)?)(?:[ \t]|&nbsp;)*(\*\*|__)(.+?)\2(?:[ \t]+[–—-][ \t]+(.+))?$/;
/** A link alone: inline (`[text](href)`), full reference (`[text][label]`) or shortcut (`[label]`). */
const LINK = /^\[((?:[^[\]]|\[[^\]]*\])+)\](?:\(<?([^)\s>]+)>?(?:[ \t]+"[^"]*")?\)|\[([^\]]*)\])?$/;
const LINK_DEFINITION = /^[ \t]{0,3}\[([^\]]+)\]:[ \t]*<?(\S+?)>?(?:[ \t]+(?:"[^"]*"|'[^']*'|\([^)]*\)))?[ \t]*$/;

/** A page's link reference definitions (`[Language]: changing-the-language.md`) by their label as markdown matches it. */
export function linkDefinitions(lines: readonly string[]): Map<string, string> {
  const definitions = new Map<string, string>();
  for (const line of lines) {
    const m = LINK_DEFINITION.exec(line);
    if (m && !m[1]!.startsWith('^') && !definitions.has(label(m[1]!))) definitions.set(label(m[1]!), m[2]!);
  }
  return definitions;
}

const label = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

/** The target of a reference link (`[text][label]`, `[label][]`, `[label]`) by its label, as markdown matches it. */
export function definitionOf(definitions: ReadonlyMap<string, string>, written: string): string | undefined {
  return definitions.get(label(written));
}

interface Card {
  title: string;
  description: string[];
  target?: string;
}

/**
 * The grid's lines (already converted: icons drawn, classes left out) as GitBook's `<table data-view="cards">`;
 * undefined when something in it is not a list of cards.
 */
export function cardsTable(lines: readonly string[], definitions: ReadonlyMap<string, string>): string | undefined {
  const cards: Card[] = [];
  for (let i = 0; i < lines.length; ) {
    if (lines[i]!.trim() === '') {
      i++;
      continue;
    }
    const item = ITEM.exec(lines[i]!);
    if (!item) return undefined;
    const { lines: inner, next } = indentedBlock(lines, i + 1);
    const card = readCard(paragraphs([item[1]!, ...inner]), definitions);
    if (!card) return undefined;
    cards.push(card);
    i = next;
  }
  if (cards.length === 0) return undefined;
  const described = cards.some((card) => card.description.length > 0);
  const targeted = cards.some((card) => card.target !== undefined);
  const head = ['<th></th>', ...(described ? ['<th></th>'] : []), ...(targeted ? ['<th data-hidden data-card-target data-type="content-ref"></th>'] : [])];
  const rows = cards.map((card) => {
    const cells = [cell([card.title]), ...(described ? [cell(card.description)] : []), ...(targeted ? [card.target ? `<a href="${escapeAttribute(card.target)}">${escapeText(card.target)}</a>` : ''] : [])];
    return `<tr>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`;
  });
  return `<table data-view="cards"><thead><tr>${head.join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** An item's paragraphs, each one line; undefined when a line starts another kind of block. */
function paragraphs(lines: readonly string[]): string[] | undefined {
  const found: string[] = [];
  let current: string[] = [];
  const flush = () => {
    if (current.length > 0) found.push(current.join(' '));
    current = [];
  };
  for (const line of lines) {
    const text = line.trim();
    if (text === '') {
      flush();
      continue;
    }
    if (RULE.test(text)) {
      flush();
      continue;
    }
    // Indented code, a fence, a list, a quote, a heading, a table, an image, a tag of GitBook's, or HTML.
    if (/^(?: {4}|\t)/.test(line) || /^(?:`{3}|~{3}|[-*+][ \t]|\d{1,9}[.)][ \t]|>|#|\||!\[|\{%|[=!?]{3})/.test(text)) return undefined;
    if (text.replace(INLINE_TAG, '').includes('<')) return undefined;
    // A footnote annotates words of the page's flow (GitBook's annotations): a card's cell is read apart from it.
    if (/\[\^[^\]\s]+\]/.test(text)) return undefined;
    current.push(text);
  }
  flush();
  return found;
}

function readCard(parts: string[] | undefined, definitions: ReadonlyMap<string, string>): Card | undefined {
  if (!parts || parts.length === 0) return undefined;
  const [first, ...rest] = parts as [string, ...string[]];
  const title = TITLE.exec(first);
  if (!title) return { title: first, description: rest, target: linkTarget(rest[rest.length - 1], definitions)?.href };
  const [, icon, marks, words, after] = title;
  const link = linkTarget(words, definitions);
  const description = after ? [after, ...rest] : rest;
  return {
    title: `${icon ? `${icon} ` : ''}${marks}${link ? link.text : words}${marks}`,
    description,
    target: link?.href ?? linkTarget(description[description.length - 1], definitions)?.href,
  };
}

/** The text and target of a paragraph that is one link (an icon may lead its text), its reference resolved. */
function linkTarget(text: string | undefined, definitions: ReadonlyMap<string, string>): { text: string; href: string } | undefined {
  const m = text === undefined ? null : LINK.exec(text.replace(/^<i class="[^"]*">[^<]*<\/i>[ \t]*/, ''));
  if (!m) return undefined;
  const href = m[2] ?? definitions.get(label(m[3] || m[1]!));
  return href === undefined ? undefined : { text: m[1]!, href };
}

/** A cell of one paragraph is its markdown; of several, one `<p>` each (a cell is one line of the table's HTML). */
const cell = (parts: readonly string[]) => (parts.length === 1 ? parts[0]! : parts.map((part) => `<p>${part}</p>`).join(''));

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
