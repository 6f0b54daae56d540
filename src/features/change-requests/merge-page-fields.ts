import type { PageAttributes, PageRecord } from '../content/pages.ts';
import type { DocumentTexts, MergeConflict } from './merge-conflicts.ts';
import { mergeText } from './merge-text.ts';
import { mergeValue, quoted, sameValue, sentence, type SideLabels } from './merge-values.ts';

export interface PageFieldsMerge {
  /** The merged version; a field in conflict keeps ours' value, so the tree checks see every other change. */
  page: PageRecord;
  /** The document merged as text, when it is neither side's document. */
  markdown?: string;
  conflicts: MergeConflict[];
}

interface FieldContext {
  labels: SideLabels;
  titleOf: (pageId: string) => string;
}

/** Equality of two versions of a page, timestamps aside: saving a page unchanged is not an edit. */
export function samePageContent(a: PageRecord, b: PageRecord): boolean {
  return sameValue({ ...a, createdAt: undefined, updatedAt: undefined }, { ...b, createdAt: undefined, updatedAt: undefined });
}

/**
 * A page changed on both sides, merged field by field against the ancestor (absent when both sides created a
 * page with this id). The document is merged as markdown text; every other field changed on both sides to
 * different values is a conflict.
 */
export function mergePageFields(
  base: PageRecord | undefined,
  ours: PageRecord,
  theirs: PageRecord,
  texts: () => DocumentTexts,
  context: FieldContext,
): PageFieldsMerge {
  const { ours: O, theirs: T } = context.labels;
  const name = quoted(base?.title ?? ours.title);
  const conflicts: MergeConflict[] = [];
  const conflict = (kind: MergeConflict['kind'], field: string, message: string, values: { base: unknown; ours: unknown; theirs: unknown }) =>
    conflicts.push({ pageId: ours.id, kind, field, message: sentence(message), ...values });

  const field = <K extends 'kind' | 'title' | 'slug'>(key: K, describe: (o: PageRecord[K], t: PageRecord[K]) => string): PageRecord[K] => {
    const result = mergeValue(base?.[key], ours[key], theirs[key]);
    if (!result.conflict) return result.value as PageRecord[K];
    conflict(key, key, describe(ours[key], theirs[key]), { base: base?.[key], ours: ours[key], theirs: theirs[key] });
    return ours[key];
  };
  const kind = field('kind', (o, t) => `${O} made ${name} a ${o} and ${T} made it a ${t}.`);
  const title = field('title', (o, t) => `${name} was renamed ${quoted(o)} by ${O} and ${quoted(t)} by ${T}.`);
  const slug = field('slug', (o, t) => `${O} changed the slug of ${name} to ${quoted(o)} and ${T} to ${quoted(t)}.`);

  const placementOf = (page: PageRecord | undefined) => page && { parentId: page.parentId, position: page.position };
  const placement = mergeValue(placementOf(base), placementOf(ours), placementOf(theirs));
  if (placement.conflict) {
    const where = (parentId: string | null) => (parentId === null ? 'to the top level' : `under ${quoted(context.titleOf(parentId))}`);
    conflict(
      'move',
      'placement',
      ours.parentId === theirs.parentId
        ? `${O} and ${T} both moved ${name} ${where(ours.parentId)}, to different positions.`
        : `${O} moved ${name} ${where(ours.parentId)} and ${T} moved it ${where(theirs.parentId)}.`,
      { base: placementOf(base), ours: placementOf(ours), theirs: placementOf(theirs) },
    );
  }
  const { parentId, position } = placement.conflict ? ours : placement.value!;

  const attributes: PageAttributes = {};
  for (const key of new Set([...Object.keys(ours.attributes), ...Object.keys(theirs.attributes)]) as Set<keyof PageAttributes>) {
    const result = mergeValue(base?.attributes[key], ours.attributes[key], theirs.attributes[key]);
    const value = result.conflict ? ours.attributes[key] : result.value;
    if (result.conflict) {
      conflict('attribute', `attributes.${key}`, `${O} and ${T} both changed the ${key} of ${name} (${show(ours.attributes[key])} and ${show(theirs.attributes[key])}).`, {
        base: base?.attributes[key],
        ours: ours.attributes[key],
        theirs: theirs.attributes[key],
      });
    }
    if (value !== undefined) (attributes as Record<string, unknown>)[key] = value;
  }

  let documentId = ours.documentId;
  let markdown: string | undefined;
  const document = mergeValue(base?.documentId ?? null, ours.documentId, theirs.documentId);
  if (!document.conflict) documentId = document.value;
  else {
    const text = texts();
    const [baseText, oursText, theirsText] = [text.base ?? '', text.ours ?? '', text.theirs ?? ''];
    const merged = mergeText(baseText, oursText, theirsText, { ours: O, base: 'base', theirs: T });
    if (merged.conflict) {
      const places = merged.regions.length === 1 ? 'the same part' : `the same parts (${merged.regions.length} places)`;
      conflicts.push({
        pageId: ours.id,
        kind: 'content',
        field: 'document',
        message: sentence(`${O} and ${T} both edited ${places} of ${name}.`),
        base: baseText,
        ours: oursText,
        theirs: theirsText,
        markedText: merged.markedText,
      });
    } else if (merged.text === theirsText && merged.text !== oursText) documentId = theirs.documentId;
    else if (merged.text !== oursText) markdown = merged.text;
  }

  const page: PageRecord = {
    id: ours.id,
    parentId,
    position,
    kind,
    title,
    slug,
    documentId,
    attributes,
    createdAt: ours.createdAt,
    updatedAt: ours.updatedAt > theirs.updatedAt ? ours.updatedAt : theirs.updatedAt,
  };
  if (conflicts.length > 0) return { page, conflicts };
  if (markdown === undefined && samePageContent(page, ours)) return { page: ours, conflicts };
  if (markdown === undefined && samePageContent(page, theirs)) return { page: theirs, conflicts };
  return markdown === undefined ? { page, conflicts } : { page, markdown, conflicts };
}

/** An attribute value in a message: removed, or its JSON, kept short. */
function show(value: unknown): string {
  if (value === undefined) return 'removed';
  const json = JSON.stringify(value);
  return json.length > 60 ? `${json.slice(0, 57)}...` : json;
}
