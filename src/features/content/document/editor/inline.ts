import type { Inline, InlineContent, Leaf, Mark, MarkType, Text } from '../types.ts';
import type { PMMark, PMNode } from './editor-json.ts';
import { MARK_RANK } from './schema.ts';

/*
 * Inline content <-> ProseMirror inline nodes. A leaf becomes a text node with its marks and the hidden
 * `textref` mark (which Text, which leaf); an inline image or an opaque inline an `inlineAtom` with its JSON;
 * a link the `link` mark over its content. Leaves come back regrouped by (Text id, leaf index, marks): a
 * leaf split by a new mark becomes several leaves of the same Text, an unchanged leaf comes back whole.
 * ProseMirror has no empty text: an empty Text before an inline is kept in that inline's `leading`, the one
 * ending a block (or a link) in its `trailing` (`false`: there was none, `null`: make the empty Text the
 * normal form asks for).
 */

export class Unrepresentable extends Error {}

const TO_PM: Record<MarkType, string> = {
  bold: 'bold', italic: 'italic', strikethrough: 'strike', code: 'code', keyboard: 'keyboard',
  superscript: 'superscript', subscript: 'subscript', color: 'color',
};
const FROM_PM = Object.fromEntries(Object.entries(TO_PM).map(([ours, pm]) => [pm, ours])) as Record<string, MarkType>;
const OUR_ORDER: readonly MarkType[] = ['bold', 'italic', 'strikethrough', 'code', 'keyboard', 'superscript', 'subscript', 'color'];
const rank = (mark: PMMark) => MARK_RANK.indexOf(mark.type as (typeof MARK_RANK)[number]);
export const sortMarks = (marks: PMMark[]) => [...marks].sort((a, b) => rank(a) - rank(b));

const isEmptyText = (node: Text): boolean => node.object === 'text' && node.leaves.every((l) => l.text === '');
export const emptyText = (): Text => ({ object: 'text', leaves: [{ object: 'leaf', text: '', marks: [] }] });

/** Our inline content as ProseMirror inline nodes, and what stands after the last of them (`trailing`). */
export function inlineToEditor(nodes: readonly InlineContent[], outer: PMMark[] = []): { content: PMNode[]; trailing: Text | false | null } {
  const content: PMNode[] = [];
  let before: 'none' | 'text' | Text = 'none';
  const leading = () => (before === 'none' ? false : before === 'text' ? null : before);
  nodes.forEach((node, n) => {
    if (node.object === 'text') {
      if (before !== 'none' && before !== 'text') throw new Unrepresentable('an empty text before another text');
      if (isEmptyText(node)) {
        if (node.leaves.length !== 1 || before === 'text') throw new Unrepresentable('an empty text after a text');
        before = node;
        return;
      }
      node.leaves.forEach((leaf, index) => {
        if (leaf.text === '') throw new Unrepresentable('an empty leaf in a text');
        const marks = (leaf.marks ?? []).map((mark): PMMark => {
          const keys = Object.keys(mark).filter((k) => k !== 'object' && k !== 'type' && k !== 'data');
          if (keys.length > 0 || !TO_PM[mark.type]) throw new Unrepresentable('a mark with fields the editor does not know');
          return mark.data === undefined ? { type: TO_PM[mark.type] } : { type: TO_PM[mark.type], attrs: { data: mark.data } };
        });
        const ref: PMMark = { type: 'textref', attrs: { id: `t${n}`, key: node.key ?? null, leaf: index, bare: leaf.marks === undefined } };
        content.push({ type: 'text', text: leaf.text, marks: sortMarks([...outer, ...marks, ref]) });
      });
      before = 'text';
      return;
    }
    if (node.type === 'link' && Array.isArray(node.nodes)) {
      const { nodes: children, ...rest } = node;
      const mark: PMMark = { type: 'link', attrs: { inline: { ...rest, nodes: [] }, id: `l${n}`, leading: leading(), trailing: null } };
      const inner = inlineToEditor(children, [...outer, mark]);
      if (inner.content.length > 0) {
        mark.attrs!.trailing = inner.trailing;
        content.push(...inner.content);
        before = 'none';
        return;
      }
    }
    content.push({ type: 'inlineAtom', attrs: { inline: node, leading: leading() }, ...(outer.length > 0 ? { marks: sortMarks(outer) } : {}) });
    before = 'none';
  });
  return { content, trailing: before === 'none' ? false : before === 'text' ? null : before };
}

type Item = { kind: 'text'; node: PMNode } | { kind: 'atom'; node: PMNode } | { kind: 'link'; mark: PMMark; children: PMNode[] };

const linkOf = (node: PMNode) => node.marks?.find((m) => m.type === 'link');
const sameAttrs = (a: PMMark, b: PMMark) => JSON.stringify(a.attrs) === JSON.stringify(b.attrs);

/** ProseMirror inline nodes back as our inline content. */
export function inlineFromEditor(children: readonly PMNode[], trailing: unknown, inLink = false): InlineContent[] {
  const items: Item[] = [];
  for (const child of children) {
    const link = inLink ? undefined : linkOf(child);
    const last = items[items.length - 1];
    if (link) {
      if (last?.kind === 'link' && sameAttrs(last.mark, link)) last.children.push(child);
      else items.push({ kind: 'link', mark: link, children: [child] });
    } else items.push({ kind: child.type === 'text' ? 'text' : 'atom', node: child });
  }

  const out: InlineContent[] = [];
  let text: { value: Text; id: unknown } | undefined;
  const close = () => {
    if (text) out.push(text.value);
    text = undefined;
  };
  const lead = (leading: unknown) => {
    if (text) return close();
    if (leading === false) return;
    out.push(leading && typeof leading === 'object' ? (leading as Text) : emptyText());
  };
  for (const item of items) {
    if (item.kind === 'text') {
      const ref = item.node.marks?.find((m) => m.type === 'textref')?.attrs;
      const id = ref?.id ?? null;
      if (!text || (id !== null && text.id !== null && id !== text.id)) {
        close();
        const key = ref?.key;
        text = { value: typeof key === 'string' ? { object: 'text', key, leaves: [] } : { object: 'text', leaves: [] }, id };
      } else if (text.id === null) text.id = id;
      const marks: Mark[] = (item.node.marks ?? [])
        .filter((m) => FROM_PM[m.type])
        .map((m): Mark => {
          const data = m.attrs?.data;
          return data === null || data === undefined ? { object: 'mark', type: FROM_PM[m.type]! } : { object: 'mark', type: FROM_PM[m.type]!, data: data as Record<string, unknown> };
        })
        .sort((a, b) => OUR_ORDER.indexOf(a.type) - OUR_ORDER.indexOf(b.type));
      const leafIndex = ref?.leaf ?? -1;
      const leaves = text.value.leaves as (Leaf & { index?: unknown })[];
      const previous = leaves[leaves.length - 1];
      if (previous && leafIndexes.get(previous) === leafIndex && JSON.stringify(previous.marks ?? []) === JSON.stringify(marks)) {
        previous.text += item.node.text ?? '';
      } else {
        const leaf: Leaf = ref?.bare === true && marks.length === 0 ? { object: 'leaf', text: item.node.text ?? '' } : { object: 'leaf', text: item.node.text ?? '', marks };
        leafIndexes.set(leaf, leafIndex);
        leaves.push(leaf);
      }
      continue;
    }
    if (item.kind === 'atom') {
      // An inline parsed from pasted HTML has no JSON to give: it is left out.
      if (!item.node.attrs?.inline) continue;
      lead(item.node.attrs?.leading ?? null);
      out.push(item.node.attrs?.inline as Inline);
      continue;
    }
    const attrs = item.mark.attrs ?? {};
    lead(attrs.leading ?? null);
    const shell = (attrs.inline as Record<string, unknown> | null) ?? { object: 'inline', type: 'link', data: { ref: { kind: 'url', url: '' } }, nodes: [] };
    out.push({ ...shell, nodes: inlineFromEditor(item.children, attrs.trailing ?? null, true) } as unknown as Inline);
  }
  if (text) close();
  else if (trailing !== false) out.push(trailing && typeof trailing === 'object' ? (trailing as Text) : emptyText());
  return out;
}

const leafIndexes = new WeakMap<Leaf, unknown>();
