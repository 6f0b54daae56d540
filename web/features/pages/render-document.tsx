import { Fragment as Keyed, memo, useId, useState, type KeyboardEvent, type ReactNode } from 'react';
import type {
  Block, Code, Document, Expandable, FlowBlock, Fragment, Heading, Hint, Images, InlineContent, List, Table, TableDefinition, TableRecord, TableValue, Tabs,
} from '../../../src/features/content/document/types.ts';
import { embedSite } from '../../../src/features/content/document/embed-site.ts';
import { cardCover, cardsLayout, cardTarget, cardTitleField, shownColumns, valueRefs } from '../../../src/features/content/document/table-cards.ts';
import { blockText, inlineText } from '../../../src/features/content/document/text.ts';
import { headingAnchors, MAX_DEPTH } from '../../../src/features/reader/heading-anchors.ts';
import { useHighlightedCode, type ClassedToken } from '../code/use-highlighted-code.ts';
import { cssWidth } from '../editor/model/length.ts';
import { imageSource, resolveRef, type AppLinks } from './links.ts';
import { LinkTo, renderInlines } from './render-inline.tsx';
import { faCheck, faCircleCheck, faCircleExclamation, faCircleInfo, faTriangleExclamation, faUpRightFromSquare } from '@fortawesome/free-solid-svg-icons';
import { Icon } from '../../ui/icon.tsx';
import { BlockFormula } from '../math/formula.tsx';
import { isOpenAPIBlock, OpenAPIBlockView } from './render-openapi.tsx';

/*
 * A page's JSON document, read-only, as the reader renders it (src/features/reader/render-document.tsx) and with
 * its stylesheet's classes: the same anchors for headings (the reader's heading-anchors.ts), the same markup
 * for hints, tabs, code and tables. Code is highlighted by shiki as the reader does, once its grammar has loaded
 * (features/code; plain until then), math by temml as the reader does (features/math), OpenAPI blocks from their
 * spec as the editor does (render-openapi.tsx). What differs: blocks the reader renders from integrations show their text.
 */

/**
 * Wraps or replaces how a top-level block is shown (the review screens mark what changed and hang comments on a
 * block this way): given the block and how it renders, it answers what to show.
 */
export type DecorateBlock = (block: FlowBlock, rendered: ReactNode, index: number) => ReactNode;

interface Ctx {
  links: AppLinks;
  anchors: Map<Heading, string>;
  decorate?: DecorateBlock | undefined;
  /** Inside a link (a card that links somewhere): a link in it is invalid HTML, so links show their text only. */
  inLink?: boolean;
}

/*
 * Memoised: a screen drawn again with the same document does not draw it again. A navigation that waits (a route's
 * loader or code) draws the current screen once more before the next: a click on "Edit" drew the page view's 300
 * blocks again on its way to the editor.
 */
export const DocumentView = memo(function DocumentView({ document, links, decorate }: { document: Document; links: AppLinks; decorate?: DecorateBlock }) {
  const ctx: Ctx = { links, anchors: headingAnchors(document), decorate };
  return <div className="document">{renderFlow(document.nodes ?? [], ctx, 0)}</div>;
});

function renderFlow(blocks: readonly Block[], ctx: Ctx, depth: number): ReactNode[] {
  return blocks.map((block, i) => {
    if (!block || typeof block !== 'object') return null;
    const key = block.key ?? i;
    if (depth > MAX_DEPTH) return <p key={key}>{blockText(block)}</p>;
    const rendered = <BlockView key={key} block={block as FlowBlock} ctx={ctx} depth={depth} />;
    return depth === 0 && ctx.decorate ? <Keyed key={key}>{ctx.decorate(block as FlowBlock, rendered, i)}</Keyed> : rendered;
  });
}

const alignClass = (align: unknown) => (align === 'center' || align === 'end' ? `align-${align}` : undefined);

function BlockView({ block, ctx, depth }: { block: FlowBlock; ctx: Ctx; depth: number }): ReactNode {
  switch (block.type) {
    case 'paragraph':
      return <p className={alignClass(block.data?.align)}>{renderInlines(block.nodes, ctx.links, ctx.inLink)}</p>;
    case 'heading-1':
    case 'heading-2':
    case 'heading-3':
      return <HeadingView block={block} ctx={ctx} />;
    case 'list-ordered':
    case 'list-unordered':
    case 'list-tasks':
      return <ListView block={block} ctx={ctx} depth={depth} />;
    case 'divider':
      return <hr />;
    case 'blockquote':
      return <blockquote>{renderFlow(block.nodes ?? [], ctx, depth + 1)}</blockquote>;
    case 'hint':
      return <HintView block={block} ctx={ctx} depth={depth} />;
    case 'code':
      return <CodeView block={block as Code} />;
    case 'table':
      return <TableView block={block} ctx={ctx} depth={depth} />;
    case 'images':
      return <ImagesView block={block} ctx={ctx} depth={depth} />;
    case 'tabs':
      return <TabsView block={block} ctx={ctx} depth={depth} />;
    case 'expandable':
      return <ExpandableView block={block} ctx={ctx} depth={depth} />;
    case 'embed': {
      // The reader's link card (render-cards.tsx): the site, and the URL under it; no third party's player.
      const link = resolveRef({ kind: 'url', url: block.data?.url }, ctx.links);
      return link ? (
        <div className="embed card">
          <Icon icon={faUpRightFromSquare} className="card-icon" />
          <LinkTo link={link} className="card-link">
            <span className="card-title">{embedSite(link.href)}</span>
            <span className="card-description">{block.data.url}</span>
          </LinkTo>
        </div>
      ) : null;
    }
    case 'file': {
      const link = resolveRef(block.data?.ref, ctx.links);
      return link ? <p className="file-block"><LinkTo link={link}>{link.title ?? 'File'}</LinkTo></p> : null;
    }
    case 'content-ref': {
      const link = resolveRef(block.data?.ref, ctx.links);
      return link ? <p className="content-ref"><LinkTo link={link}>{link.title ?? link.href}</LinkTo></p> : null;
    }
    default:
      return <OtherBlock block={block as unknown as OpaqueBlock} ctx={ctx} depth={depth} />;
  }
}

function HeadingView({ block, ctx }: { block: Heading; ctx: Ctx }) {
  const id = ctx.anchors.get(block);
  const inner = (
    <>
      {renderInlines(block.nodes, ctx.links, ctx.inLink)}
      {id ? <a className="heading-anchor" href={`#${id}`} aria-label={`Link to ${inlineText(block.nodes ?? []) || 'this section'}`}>#</a> : null}
    </>
  );
  const className = alignClass(block.data?.align);
  // The page title is the h1; the document's levels sit below it (markdown's #### to ###### one more down each).
  if (block.type === 'heading-1') return <h2 id={id} className={className}>{inner}</h2>;
  if (block.type === 'heading-2') return <h3 id={id} className={className}>{inner}</h3>;
  // As the reader: ##### and ###### are heading-3 keeping their level (types.ts), one level down each, to h6.
  if (block.data?.level === 5) return <h5 id={id} className={className}>{inner}</h5>;
  if (block.data?.level === 6) return <h6 id={id} className={className}>{inner}</h6>;
  return <h4 id={id} className={className}>{inner}</h4>;
}

function ListView({ block, ctx, depth }: { block: List; ctx: Ctx; depth: number }) {
  const items = (block.nodes ?? []).map((item, i) => {
    const content = renderFlow(item?.nodes ?? [], ctx, depth + 1);
    if (block.type !== 'list-tasks') return <li key={item?.key ?? i}>{content}</li>;
    const checked = item?.data?.checked === true;
    return (
      <li key={item?.key ?? i} className={checked ? 'task checked' : 'task'}>
        <input type="checkbox" checked={checked} disabled readOnly aria-label={checked ? 'Done' : 'Not done'} />
        <div className="task-content">{content}</div>
      </li>
    );
  });
  if (block.type === 'list-ordered') {
    const start = typeof block.data?.start === 'number' && Number.isInteger(block.data.start) ? block.data.start : undefined;
    return <ol start={start !== 1 ? start : undefined}>{items}</ol>;
  }
  return <ul className={block.type === 'list-tasks' ? 'task-list' : undefined}>{items}</ul>;
}

const HINT_LABELS = { info: 'Info', warning: 'Warning', danger: 'Danger', success: 'Success' } as const;
const HINT_ICONS = { info: faCircleInfo, warning: faTriangleExclamation, danger: faCircleExclamation, success: faCircleCheck } as const;

function HintView({ block, ctx, depth }: { block: Hint; ctx: Ctx; depth: number }) {
  const style = Object.hasOwn(HINT_LABELS, block.data?.style) ? block.data.style : 'info';
  return (
    <div className={`hint hint-${style}`} role="note" aria-label={HINT_LABELS[style]}>
      <span className="hint-icon" aria-hidden="true"><Icon icon={HINT_ICONS[style]} /></span>
      <div className="hint-content">{renderFlow(block.nodes ?? [], ctx, depth + 1)}</div>
    </div>
  );
}

function CodeView({ block }: { block: Code }) {
  const lines = (block.nodes ?? []).map((line) => inlineText((line?.nodes ?? []).filter((n) => n?.object === 'text') as InlineContent[]));
  const tokens = useHighlightedCode(block.data?.syntax, lines.join('\n'));
  const classes = ['code-block'];
  if (block.data?.overflow === 'wrap') classes.push('wrap');
  if (block.data?.lineNumbers) classes.push('with-line-numbers');
  return (
    <div className={classes.join(' ')}>
      <div className="code-header">
        <span className="code-title">{block.data?.title ?? ''}</span>
      </div>
      <pre className="code" tabIndex={0} aria-label={block.data?.title || `Code${block.data?.syntax ? ` (${block.data.syntax})` : ''}`} data-language={tokens ? block.data?.syntax : undefined}>
        <code>
          {lines.map((line, i) => (
            <span key={i} className={(block.nodes[i]?.data?.highlighted ? 'line highlighted' : 'line')}>
              {tokens?.[i] ? tokens[i].map((token, j) => <TokenView key={j} token={token} />) : line}
              {i < lines.length - 1 ? '\n' : null}
            </span>
          ))}
        </code>
      </pre>
    </div>
  );
}

function TokenView({ token }: { token: ClassedToken }) {
  return token.className ? <span className={token.className}>{token.text}</span> : <>{token.text}</>;
}

function fragmentOf(fragments: readonly Fragment[] | undefined, name: string): Fragment | undefined {
  return (fragments ?? []).find((f) => f?.fragment === name);
}

function ImagesView({ block, ctx, depth }: { block: Images; ctx: Ctx; depth: number }) {
  const figures = (block.nodes ?? []).map((image, i) => {
    const src = imageSource(image?.data?.ref, ctx.links);
    if (!src) return null;
    const dark = imageSource(image.data.refDark, ctx.links);
    const caption = fragmentOf(image.fragments, 'caption');
    const alt = image.data.alt ?? (caption ? blockText({ object: 'block', type: 'blockquote', nodes: caption.nodes } as Block) : '');
    // As the reader lays it out: a percentage is the column's share the figure takes, pixels the image's own.
    const width = cssWidth(image.data.width);
    const share = width?.endsWith('%') ? width : undefined;
    const style = share ? { width: '100%' } : width ? { width } : undefined;
    return (
      <figure key={image.key ?? i} className="image" style={share ? { width: share } : undefined}>
        {dark ? (
          <>
            <img className="only-light" src={src} alt={alt} loading="lazy" decoding="async" style={style} />
            <img className="only-dark" src={dark} alt={alt} loading="lazy" decoding="async" style={style} />
          </>
        ) : (
          <img src={src} alt={alt} loading="lazy" decoding="async" style={style} />
        )}
        {caption ? <figcaption>{renderFlow(caption.nodes ?? [], ctx, depth + 1)}</figcaption> : null}
      </figure>
    );
  });
  if (!figures.some(Boolean)) return null;
  const classes = ['images', `align-${block.data?.align ?? 'center'}`];
  if (block.data?.fullWidth) classes.push('full-width');
  if (block.data?.withFrame) classes.push('framed');
  if (figures.length > 1) classes.push('gallery');
  return <div className={classes.join(' ')}>{figures}</div>;
}

/** The WAI-ARIA tabs pattern: arrows move between tabs, one panel shows. */
function TabsView({ block, ctx, depth }: { block: Tabs; ctx: Ctx; depth: number }) {
  const [selected, setSelected] = useState(0);
  const id = useId();
  const items = (block.nodes ?? []).filter((item) => item && typeof item === 'object');
  if (items.length === 0) return null;
  const onKeyDown = (event: KeyboardEvent) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    const next = (selected + step + items.length) % items.length;
    setSelected(next);
    document.getElementById(`${id}-${next}-tab`)?.focus();
  };
  return (
    <div className={block.data?.fullWidth ? 'tabs full-width' : 'tabs'}>
      <div className="tab-list" role="tablist" onKeyDown={onKeyDown}>
        {items.map((item, i) => (
          <button key={item.key ?? i} type="button" role="tab" id={`${id}-${i}-tab`} aria-controls={`${id}-${i}-panel`} aria-selected={i === selected} tabIndex={i === selected ? 0 : -1} onClick={() => setSelected(i)}>
            {item.data?.title?.trim() || `Tab ${i + 1}`}
          </button>
        ))}
      </div>
      {items.map((item, i) => (
        <div key={item.key ?? i} className="tab-panel" role="tabpanel" id={`${id}-${i}-panel`} aria-labelledby={`${id}-${i}-tab`} tabIndex={0} hidden={i !== selected}>
          {renderFlow(item.nodes ?? [], ctx, depth + 1)}
        </div>
      ))}
    </div>
  );
}

function ExpandableView({ block, ctx, depth }: { block: Expandable; ctx: Ctx; depth: number }) {
  const title = fragmentOf(block.fragments, 'expandable-title');
  const body = fragmentOf(block.fragments, 'expandable-body');
  const titleNodes = (title?.nodes ?? []).flatMap((node) => (node && 'nodes' in node && (node.type === 'paragraph' || node.type.startsWith('heading-')) ? renderInlines(node.nodes as InlineContent[], ctx.links, ctx.inLink) : []));
  return (
    <details className="expandable" open={block.data?.defaultExpanded === true ? true : undefined}>
      <summary>{titleNodes.length > 0 ? titleNodes : 'Details'}</summary>
      <div className="expandable-body">{renderFlow(body?.nodes ?? [], ctx, depth + 1)}</div>
    </details>
  );
}

function TableView({ block, ctx, depth }: { block: Table; ctx: Ctx; depth: number }) {
  const { records = {}, view } = block.data ?? ({} as Table['data']);
  const definition = block.data?.definition ?? {};
  const columns = shownColumns(block.data).map((column) => column.id);
  if (columns.length === 0) return null;
  const rows = Object.entries(records)
    .sort(([idA, a], [idB, b]) => (a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : idA < idB ? -1 : 1))
    .map(([id, record]) => ({ id, record }));
  const fragments = new Map((block.fragments ?? []).map((f) => [f.fragment, f]));
  const cell = (record: TableRecord, column: TableDefinition, within = ctx) => cellValue(column, record.values?.[column.id], fragments, within, depth);
  const align = (column: TableDefinition) => (column.textAlignment === 'center' || column.textAlignment === 'right' ? `align-${column.textAlignment}` : undefined);
  if (view?.type === 'cards') {
    // As the reader draws cards (render-table.tsx): the cover over the fields, the link on the title stretched over the card.
    const layout = cardsLayout(block.data);
    const inLink: Ctx = { ...ctx, inLink: true };
    return (
      <ul className={layout.size === 'large' ? 'table-cards table-cards-large' : 'table-cards'}>
        {rows.map(({ id, record }) => {
          const link = resolveRef(cardTarget(layout, record), ctx.links);
          const src = imageSource(cardCover(layout, record), ctx.links);
          const title = link ? cardTitleField(layout, record, fragments) : undefined;
          return (
            <li key={id} className="table-card">
              {src ? <div className="table-card-cover"><img src={src} alt="" loading="lazy" decoding="async" /></div> : null}
              {layout.fields.map((c) => (
                <div key={c.id} className="table-card-field">
                  {c === title && link ? <LinkTo link={link} className="table-card-link">{cell(record, c, inLink)}</LinkTo> : cell(record, c)}
                </div>
              ))}
              {link && !title ? <div className="table-card-field"><LinkTo link={link} className="table-card-link">{link.title ?? link.href}</LinkTo></div> : null}
            </li>
          );
        })}
      </ul>
    );
  }
  const title = `Table: ${columns.map((c) => definition[c]!.title).join(', ')}`;
  return (
    <div className={block.data?.fullWidth ? 'table-wrapper full-width' : 'table-wrapper'} tabIndex={0} role="region" aria-label={title}>
      <table>
        {view?.type === 'grid' && view.hideHeader ? null : (
          <thead>
            <tr>{columns.map((c) => <th key={c} scope="col" className={align(definition[c]!)}>{definition[c]!.title}</th>)}</tr>
          </thead>
        )}
        <tbody>
          {rows.map(({ id, record }) => (
            <tr key={id}>{columns.map((c) => <td key={c} className={align(definition[c]!)}>{cell(record, definition[c]!)}</td>)}</tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function cellValue(column: TableDefinition, value: TableValue | undefined, fragments: Map<string, Fragment>, ctx: Ctx, depth: number): ReactNode {
  if (value === undefined || value === null) return null;
  switch (column.type) {
    case 'text': {
      const fragment = typeof value === 'string' ? fragments.get(value) : undefined;
      return fragment ? renderFlow(fragment.nodes ?? [], ctx, depth + 1) : null;
    }
    case 'number':
      return typeof value === 'number' || typeof value === 'string' ? String(value) : null;
    case 'checkbox':
      return <span className={value === true ? 'checkbox checked' : 'checkbox'} role="img" aria-label={value === true ? 'Yes' : 'No'}>{value === true ? <Icon icon={faCheck} /> : null}</span>;
    case 'content-ref': {
      const link = resolveRef(value as never, ctx.links);
      if (!link) return null;
      return ctx.inLink ? (link.title ?? link.href) : <LinkTo link={link}>{link.title ?? link.href}</LinkTo>;
    }
    case 'files':
    case 'image':
      // As the reader draws them: an image column's pictures, a files column's names linking to the files.
      return valueRefs(value).map((ref, i) => {
        if (column.type === 'image') {
          const src = imageSource(ref, ctx.links);
          const name = ref.kind === 'file' ? (ctx.links.file(ref.file)?.name ?? '') : '';
          return src ? <img key={i} className="table-image" src={src} alt={name} loading="lazy" /> : null;
        }
        const link = resolveRef(ref, ctx.links);
        if (!link) return null;
        return ctx.inLink ? <Keyed key={i}>{link.title}</Keyed> : <LinkTo key={i} link={link} className="file-link">{link.title ?? link.href}</LinkTo>;
      });
    default:
      return typeof value === 'string' || typeof value === 'number' ? String(value) : Array.isArray(value) ? value.join(', ') : null;
  }
}

interface OpaqueBlock { type: string; key?: string; data?: Record<string, unknown>; nodes?: Block[]; fragments?: Fragment[] }

/** Blocks the reader renders with integrations or heavy libraries (math, OpenAPI, steppers, columns): their content, or their text. */
function OtherBlock({ block, ctx, depth }: { block: OpaqueBlock; ctx: Ctx; depth: number }) {
  if (block.type === 'math') return <BlockFormula formula={typeof block.data?.formula === 'string' ? block.data.formula : ''} />;
  if (isOpenAPIBlock(block.type)) return <OpenAPIBlockView type={block.type} data={block.data} />;
  const children = [...(block.fragments ?? []).flatMap((f) => f.nodes ?? []), ...(block.nodes ?? [])];
  if (block.type === 'prompt') {
    // As the published reader draws it (render-opaque-blocks.tsx), its description above its blocks.
    const description = typeof block.data?.description === 'string' ? block.data.description : '';
    return (
      <div className="prompt" role="group" aria-label={description || 'Prompt'}>
        {description ? <p className="prompt-description">{description}</p> : null}
        {renderFlow(children as Block[], ctx, depth + 1)}
      </div>
    );
  }
  if (children.length === 0) return null;
  return <div className={`block-${block.type}`}>{renderFlow(children as Block[], ctx, depth + 1)}</div>;
}
