import type { ComponentChild, VNode } from 'preact';
import type { ContentRef, Fragment, Table, TableDefinition, TableRecord, TableValue } from '../content/document/types.ts';
import { anchor, imageSource } from './render-inline.tsx';
import { resolveLink } from './link-resolver.ts';
import type { RenderContext } from './render-context.ts';
import { columnSizes } from '../content/document/table-widths.ts';
import { cardCover, cardsLayout, cardTarget, cardTitleField, shownColumns, valueRefs } from '../content/document/table-cards.ts';

type RenderFlow = (nodes: Fragment['nodes'], ctx: RenderContext, depth: number) => ComponentChild[];

/** A table block: a grid as an HTML table (scrolling sideways on narrow screens), cards as a list of cards. */
export function renderTable(block: Table, ctx: RenderContext, depth: number, flow: RenderFlow): VNode | null {
  const { records = {}, view } = block.data ?? ({} as Table['data']);
  const definition = block.data?.definition ?? {};
  const columns = shownColumns(block.data).map((column) => column.id);
  if (columns.length === 0) return null;
  const rows = Object.entries(records)
    .sort(([idA, a], [idB, b]) => (a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : idA < idB ? -1 : 1))
    .map(([, record]) => record);
  const fragments = new Map((block.fragments ?? []).map((f) => [f.fragment, f]));
  const cell = (record: TableRecord, column: TableDefinition, within = ctx) => renderValue(column, record.values?.[column.id], fragments, within, depth, flow);

  if (view?.type === 'cards') {
    const layout = cardsLayout(block.data);
    // A card's link is drawn on its title, and stretched over the card (reader.css): the link is named by the
    // title, and the card's other links stay links. Links in the title show as text: no link in a link.
    const inLink: RenderContext = { ...ctx, inLink: true };
    return (
      <ul class={layout.size === 'large' ? 'table-cards table-cards-large' : 'table-cards'}>
        {rows.map((record) => {
          const link = resolveLink(cardTarget(layout, record), ctx.links);
          const src = imageSource(cardCover(layout, record), ctx);
          const title = link ? cardTitleField(layout, record, fragments) : undefined;
          return (
            <li class="table-card">
              {/* The card's title says what the picture illustrates: read once, by the title. */}
              {src ? <div class="table-card-cover"><img src={src} alt="" loading="lazy" decoding="async" /></div> : null}
              {layout.fields.map((column) => (
                <div class="table-card-field">{column === title && link ? anchor(link, ctx, cell(record, column, inLink), 'table-card-link') : cell(record, column)}</div>
              ))}
              {link && !title ? <div class="table-card-field">{anchor(link, ctx, link.title ?? link.href, 'table-card-link')}</div> : null}
            </li>
          );
        })}
      </ul>
    );
  }
  const align = (column: TableDefinition) => (column.textAlignment === 'center' || column.textAlignment === 'right' ? `align-${column.textAlignment}` : undefined);
  const id = ctx.nextId('table');
  // The widths set in GitBook (or dragged in the editor): the table lays its columns out by them, not by their text.
  const sizes = view ? columnSizes(view, columns) : null;
  return (
    <div class={block.data?.fullWidth ? 'table-wrapper full-width' : 'table-wrapper'} tabindex={0} role="region" aria-labelledby={`${id}-caption`}>
      <table style={sizes ? `table-layout:fixed;width:${sizes.table}` : undefined}>
        <caption id={`${id}-caption`} class="sr-only">
          Table: {columns.map((c) => definition[c]!.title).join(', ')}
        </caption>
        {sizes ? (
          <colgroup>
            {sizes.columns.map((width) => (
              <col style={`width:${width}`} />
            ))}
          </colgroup>
        ) : null}
        {view?.type === 'grid' && view.hideHeader ? null : (
          <thead>
            <tr>
              {columns.map((id) => (
                <th scope="col" class={align(definition[id]!)}>
                  {definition[id]!.title}
                </th>
              ))}
            </tr>
          </thead>
        )}
        <tbody>
          {rows.map((record) => (
            <tr>
              {columns.map((id) => (
                <td class={align(definition[id]!)}>{cell(record, definition[id]!)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function renderValue(
  column: TableDefinition, value: TableValue | undefined, fragments: Map<string, Fragment>, ctx: RenderContext, depth: number, flow: RenderFlow,
): ComponentChild {
  if (value === undefined || value === null) return null;
  switch (column.type) {
    case 'text': {
      const fragment = typeof value === 'string' ? fragments.get(value) : undefined;
      return fragment ? flow(fragment.nodes ?? [], ctx, depth + 1) : null;
    }
    case 'number':
      return typeof value === 'number' || typeof value === 'string' ? String(value) : null;
    case 'checkbox':
      return (
        <span class={value === true ? 'checkbox checked' : 'checkbox'} role="img" aria-label={value === true ? 'Yes' : 'No'}>
          {value === true ? '✓' : ''}
        </span>
      );
    case 'rating': {
      const max = typeof column.max === 'number' && column.max > 0 && column.max <= 10 ? column.max : 5;
      const stars = typeof value === 'number' ? Math.max(0, Math.min(max, Math.round(value))) : 0;
      return (
        <span class="rating" role="img" aria-label={`${stars} out of ${max}`}>
          {'★'.repeat(stars)}
          {'☆'.repeat(max - stars)}
        </span>
      );
    }
    case 'select': {
      const options = Array.isArray(column.options) ? (column.options as { value?: unknown; label?: unknown }[]) : [];
      const chosen = (Array.isArray(value) ? value : [value]).map((v) => {
        const option = options.find((o) => o?.value === v);
        return typeof option?.label === 'string' ? option.label : typeof v === 'string' ? v : '';
      });
      return chosen.filter(Boolean).map((label) => <span class="tag">{label}</span>);
    }
    case 'files':
    case 'image':
      // File ids (GitBook's `files`), or a file or URL reference (an imported image, a card's cover).
      return valueRefs(value).map((ref) => {
        if (column.type === 'image') {
          const src = imageSource(ref, ctx);
          const name = ref.kind === 'file' ? (ctx.links.file(ref)?.name ?? '') : '';
          return src ? <img class="table-image" src={src} alt={name} loading="lazy" /> : null;
        }
        const resolved = ref.kind === 'file' ? ctx.links.file(ref) : null;
        const link = resolveLink(ref, ctx.links);
        if (!resolved || !link) return null;
        return ctx.inLink ? resolved.name : anchor(link, ctx, resolved.name, 'file-link');
      });
    case 'content-ref': {
      if (typeof value !== 'object' || Array.isArray(value) || !('kind' in value)) return null;
      const link = resolveLink(value as ContentRef, ctx.links);
      if (!link) return null;
      return ctx.inLink ? (link.title ?? link.href) : anchor(link, ctx, link.title ?? link.href);
    }
    default:
      // Users: the reader has no public profile to show.
      return typeof value === 'string' && column.type !== 'users' ? value : null;
  }
}
