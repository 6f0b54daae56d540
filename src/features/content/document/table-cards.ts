import { blockText } from './text.ts';
import type { Block, ContentRef, ContentRefFile, ContentRefUrl, Fragment, Table, TableDefinition, TableRecord, TableValue } from './types.ts';

/*
 * What a table block shows, decided once for the three that draw it (the reader, the app's page view, the editor):
 * its columns, and for cards (GitBook's `DocumentTableViewCards`) which column is each card's cover picture
 * (`coverDefinition`), which one the card links to (`targetDefinition`), and how large the cards are. GitBook
 * keeps the cover and the link among the view's hidden columns; listed or not, they are drawn as the card's
 * picture and the card's link, never as fields of it. A card that links somewhere is named by its title (its
 * first text field with words): the link is drawn on that field, and stretched over the card (reader.css).
 */

/** The columns a view lists (all of them when it lists none, as tables stored without a view's list have it). */
export function shownColumns(data: Pick<Table['data'], 'definition' | 'view'> | undefined): TableDefinition[] {
  const definition = data?.definition ?? {};
  const listed = data?.view?.columns?.length ? data.view.columns : Object.keys(definition);
  return listed.map((id) => definition[id]).filter((column): column is TableDefinition => !!column);
}

export interface CardsLayout {
  /** The columns drawn as each card's fields, in the view's order. */
  fields: TableDefinition[];
  cover: TableDefinition | undefined;
  target: TableDefinition | undefined;
  size: 'medium' | 'large';
}

/** How a cards view lays its cards out. */
export function cardsLayout(data: Pick<Table['data'], 'definition' | 'view'>): CardsLayout {
  const view = data.view as Record<string, unknown> | undefined;
  const named = (field: 'coverDefinition' | 'targetDefinition') => {
    const id = view?.[field];
    return typeof id === 'string' ? data.definition?.[id] : undefined;
  };
  const cover = named('coverDefinition');
  const target = named('targetDefinition');
  return {
    fields: shownColumns(data).filter((column) => column !== cover && column !== target),
    cover,
    target,
    size: view?.cardSize === 'large' ? 'large' : 'medium',
  };
}

type Json = Record<string, unknown>;

/**
 * The references of a `files` or `image` value: file ids (GitBook's `files`), a content reference (an imported
 * `image`), or GitBook's `{ ref, objectFit }` of a card's cover.
 */
export function valueRefs(value: TableValue | undefined): ContentRef[] {
  return (Array.isArray(value) ? value : [value]).flatMap((item: unknown): ContentRef[] => {
    if (typeof item === 'string') return item ? [{ kind: 'file', file: item }] : [];
    if (!item || typeof item !== 'object') return [];
    const ref = (item as Json).ref && typeof (item as Json).ref === 'object' ? ((item as Json).ref as Json) : (item as Json);
    return typeof ref.kind === 'string' ? [ref as unknown as ContentRef] : [];
  });
}

/** A card's cover picture: the first file or URL of its cover column, or undefined. */
export function cardCover(layout: CardsLayout, record: TableRecord): ContentRefFile | ContentRefUrl | undefined {
  if (!layout.cover) return undefined;
  return valueRefs(record.values?.[layout.cover.id]).find((ref): ref is ContentRefFile | ContentRefUrl => ref.kind === 'file' || ref.kind === 'url');
}

/** Where a card leads: the page, URL, anchor or file of its link column, or undefined. */
export function cardTarget(layout: CardsLayout, record: TableRecord): ContentRef | undefined {
  if (!layout.target) return undefined;
  return valueRefs(record.values?.[layout.target.id])[0];
}

/**
 * The field a card's link is drawn on, the card's name: its first text field that has words, or undefined when
 * none has.
 */
export function cardTitleField(layout: CardsLayout, record: TableRecord, fragments: ReadonlyMap<string, Fragment>): TableDefinition | undefined {
  return layout.fields.find((column) => {
    if (column.type !== 'text') return false;
    const name = record.values?.[column.id];
    const fragment = typeof name === 'string' ? fragments.get(name) : undefined;
    return !!fragment && blockText({ object: 'block', type: 'blockquote', nodes: fragment.nodes ?? [] } as Block) !== '';
  });
}
