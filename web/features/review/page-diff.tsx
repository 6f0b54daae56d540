import { useMemo, type ReactNode } from 'react';
import type { Document, FlowBlock } from '../../../src/features/content/document/types.ts';
import type { AppLinks } from '../pages/links.ts';
import { DocumentView } from '../pages/render-document.tsx';
import { VariablesContext } from '../pages/variables.ts';
import type { ExpressionVariables } from '../../../src/features/reader/expression-value.ts';
import { blockName, diffDocuments, type BlockChange, type TextPart } from './block-diff.ts';
import './review.css';

/*
 * A page's change as readers will see it: the document renderer draws each block, and a decoration marks what
 * changed (added and deleted blocks in <ins>/<del>, text changes inline, attributes in words, moves). Side by
 * side draws the old version on the left and the new on the right with the same marks.
 */

export interface PageDiffProps {
  before: Document | null;
  after: Document | null;
  links: AppLinks;
  sideBySide?: boolean;
  /** The variables each side's expressions show (the revisions' and the page's: pages/variables.ts). */
  variables?: { before: ExpressionVariables; after: ExpressionVariables };
  /** What to show beside a block (its comment threads, a button to comment), by the block's key. */
  aside?: (key: string, block: FlowBlock, change: BlockChange) => ReactNode;
}

export function PageDiff({ before, after, links, sideBySide = false, aside, variables }: PageDiffProps) {
  const diff = useMemo(() => diffDocuments(before, after), [before, after]);
  const inBefore = (node: ReactNode) => <VariablesContext.Provider value={variables?.before ?? {}}>{node}</VariablesContext.Provider>;
  const inAfter = (node: ReactNode) => <VariablesContext.Provider value={variables?.after ?? {}}>{node}</VariablesContext.Provider>;
  if (diff.changes.length === 0) return <p className="muted">The page is empty in both versions.</p>;
  if (sideBySide) {
    return (
      <div className="diff-columns">
        <section aria-label="Before">
          <h3 className="diff-column-title">Before</h3>
          {inBefore(<DiffDocument changes={diff.changes.filter((c) => c.kind !== 'added')} side="before" links={links} />)}
        </section>
        <section aria-label="After">
          <h3 className="diff-column-title">After</h3>
          {inAfter(<DiffDocument changes={diff.changes.filter((c) => c.kind !== 'deleted')} side="after" links={links} aside={aside} />)}
        </section>
      </div>
    );
  }
  return (
    <>
      {diff.changed === 0 ? <p className="muted">The text of the page is unchanged.</p> : null}
      {/* Both versions' blocks in one column: the new version's values (a deleted block's expression may differ). */}
      {inAfter(<DiffDocument changes={diff.changes} side="both" links={links} aside={aside} />)}
    </>
  );
}

type Side = 'before' | 'after' | 'both';

function DiffDocument({ changes, side, links, aside }: { changes: BlockChange[]; side: Side; links: AppLinks; aside?: PageDiffProps['aside'] }) {
  // One document of the blocks shown, so headings get the reader's anchors; each block is found again by identity.
  const { document, byBlock } = useMemo(() => {
    const byBlock = new Map<FlowBlock, BlockChange>();
    const nodes = changes.map((change) => {
      const block = change.kind === 'edited' ? (side === 'before' ? change.before : change.after) : change.block;
      byBlock.set(block, change);
      return block;
    });
    return { document: { object: 'document', data: {}, nodes } as Document, byBlock };
  }, [changes, side]);
  return (
    <DocumentView
      document={document}
      links={links}
      decorate={(block, rendered) => {
        const change = byBlock.get(block);
        if (!change) return rendered;
        return (
          <div className={`diff-block diff-${change.kind}${'moved' in change && change.moved ? ' diff-moved' : ''}`} data-block={change.key}>
            <div className="diff-body">
              <ChangeMark change={change} side={side} rendered={rendered} />
            </div>
            {aside ? <div className="diff-aside">{aside(change.key, block, change)}</div> : null}
          </div>
        );
      }}
    />
  );
}

function ChangeMark({ change, side, rendered }: { change: BlockChange; side: Side; rendered: ReactNode }) {
  switch (change.kind) {
    case 'same':
      return (
        <>
          {change.moved ? <p className="diff-note">Moved from elsewhere on the page</p> : null}
          {rendered}
        </>
      );
    case 'added':
      return (
        <ins className="diff-whole">
          <span className="diff-label">Added {blockName(change.block)}</span>
          {rendered}
        </ins>
      );
    case 'deleted':
      return (
        <del className="diff-whole">
          <span className="diff-label">Deleted {blockName(change.block)}</span>
          {rendered}
        </del>
      );
    case 'edited': {
      const block = side === 'before' ? change.before : change.after;
      const notes = [...(change.moved ? ['Moved from elsewhere on the page'] : []), ...change.attributes];
      const inline = change.text && isTextBlock(block) ? <TextBlock block={block} parts={change.text} side={side} /> : null;
      return (
        <>
          {notes.length > 0 ? (
            <ul className="diff-notes" aria-label="Changes to this block">
              {notes.map((note) => <li key={note}>{note}</li>)}
            </ul>
          ) : null}
          {inline ?? rendered}
          {change.text && !inline ? (
            <p className="diff-text" aria-label="Text changes">
              <TextParts parts={change.text} side={side} />
            </p>
          ) : null}
        </>
      );
    }
  }
}

const TEXT_TAGS = { paragraph: 'p', 'heading-1': 'h2', 'heading-2': 'h3', 'heading-3': 'h4' } as const;
const isTextBlock = (block: FlowBlock): block is FlowBlock & { type: keyof typeof TEXT_TAGS } => block.type in TEXT_TAGS;

/** A paragraph or heading with its edits inline: its text as the diff has it, in the element the reader uses. */
function TextBlock({ block, parts, side }: { block: FlowBlock & { type: keyof typeof TEXT_TAGS }; parts: TextPart[]; side: Side }) {
  const Tag = TEXT_TAGS[block.type];
  return (
    <Tag>
      <TextParts parts={parts} side={side} />
    </Tag>
  );
}

function TextParts({ parts, side }: { parts: TextPart[]; side: Side }) {
  return (
    <>
      {parts.map((part, i) => {
        if (part.op === 'equal') return <span key={i}>{part.text}</span>;
        if (part.op === 'insert') {
          if (side === 'before') return null;
          return (
            <ins key={i}>
              <span className="sr-only">[added: </span>
              {part.text}
              <span className="sr-only">]</span>
            </ins>
          );
        }
        if (side === 'after') return null;
        return (
          <del key={i}>
            <span className="sr-only">[deleted: </span>
            {part.text}
            <span className="sr-only">]</span>
          </del>
        );
      })}
    </>
  );
}
