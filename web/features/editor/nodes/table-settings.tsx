import type { Editor } from '@tiptap/core';
import { faGrip, faTableCells } from '@fortawesome/free-solid-svg-icons';
import { Icon } from '../../../ui/icon.tsx';
import { Select } from '../../../ui/select.tsx';
import { ToggleGroup } from '../../../ui/toggle-group.tsx';
import { setNodeAttrs, type SettingsTarget } from '../model/block-settings-target.ts';
import { setTableView, setViewField } from '../model/table-columns.ts';
import type { TableJson } from '../model/table-edit.ts';

/*
 * A table's settings, in the block settings toolbar (block-settings.tsx): a grid or cards, and for cards their
 * size and the image column their covers come from (GitBook's `cardSize`, `coverDefinition`).
 */

const VIEWS = [
  { value: 'grid', label: <><Icon icon={faTableCells} /> Table</> },
  { value: 'cards', label: <><Icon icon={faGrip} /> Cards</> },
] as const;

const SIZES = [
  { value: 'medium', label: 'Medium' },
  { value: 'large', label: 'Large' },
] as const;

/** The Select's value for "no cover" (a column id is never empty). */
const NO_COVER = ' none';

export function TableSettings({ editor, target }: { editor: Editor; target: SettingsTarget }) {
  const table = target.node.attrs.block as TableJson | null;
  if (!table?.data?.view) return null;
  const view = table.data.view;
  const set = (next: TableJson) => editor.view.dispatch(setNodeAttrs(editor.state.tr, target.pos, { block: next }));
  const images = Object.values(table.data.definition).filter((d) => d.type === 'image' || d.type === 'files');
  return (
    <>
      <ToggleGroup label="Table view" items={VIEWS} value={view.type === 'cards' ? 'cards' : 'grid'} onValueChange={(type) => set(setTableView(table, type))} />
      {view.type === 'cards' && (
        <>
          <ToggleGroup label="Card size" items={SIZES} value={view.cardSize === 'large' ? 'large' : 'medium'} onValueChange={(size) => set(setViewField(table, 'cardSize', size))} />
          <Select
            label="Cover image"
            hideLabel
            size="sm"
            options={[{ value: NO_COVER, label: 'No cover' }, ...images.map((d) => ({ value: d.id, label: `Cover: ${d.title || 'image column'}` }))]}
            value={typeof view.coverDefinition === 'string' && table.data.definition[view.coverDefinition] ? view.coverDefinition : NO_COVER}
            onValueChange={(id) => set(setViewField(table, 'coverDefinition', id === NO_COVER ? undefined : id))}
          />
        </>
      )}
    </>
  );
}
