import { NodeViewWrapper, type NodeViewProps } from '@tiptap/react';
import { useContext, useRef, useState, type ComponentType } from 'react';
import { faPenToSquare } from '@fortawesome/free-solid-svg-icons';
import type { Document } from '../../../../src/features/content/document/types.ts';
import { Button } from '../../../ui/button.tsx';
import { Dialog } from '../../../ui/dialogs.tsx';
import { Popover } from '../../../ui/popover.tsx';
import type { AppLinks } from '../../pages/links.ts';
import { DocumentView } from '../../pages/render-document.tsx';
import type { PageEditorProps } from '../contract.ts';
import { ReusableContext, useReusable, type ReusableDirectory } from './reusable-directory.ts';
import { usageLabel } from './reusable-model.ts';

/*
 * A `reusable-content` block as readers see it: the blocks of the reusable content it includes (read-only here,
 * they belong to it), under a header naming it, with where it is used and a way to edit it where it lives.
 */

export function ReusableContentView({ props, id }: { props: NodeViewProps; id: string }) {
  const { entry, pages } = useReusable(id);
  const [editing, setEditing] = useState(false);
  const context = useContext(ReusableContext);
  const found = entry.status === 'ready' ? entry.value : undefined;
  const title = found ? found.title : entry.status === 'ready' ? 'Missing' : '…';
  const name = `Reusable content: ${title}`;
  return (
    <NodeViewWrapper as="section" className="qe-reusable" data-quire="opaqueBlock" data-drag-handle aria-label={name}>
      <div className="qe-reusable-head">
        <span className="qe-card-kind">{name}</span>
        {pages.status === 'ready' ? (
          <UsedIn pages={pages.value} links={context?.host.reusableContents?.links} />
        ) : (
          <span className="qe-reusable-usage">{pages.status === 'failed' ? 'Where it is used is not known' : 'Finding where it is used…'}</span>
        )}
        {found && context && props.editor.isEditable ? (
          <Button size="sm" variant="ghost" icon={faPenToSquare} onClick={() => setEditing(true)}>
            Edit where it lives
          </Button>
        ) : null}
      </div>
      <div className="qe-reusable-body">
        {entry.status === 'loading' && <p aria-busy="true">Loading its content…</p>}
        {entry.status === 'failed' && <p role="alert">{entry.message}</p>}
        {entry.status === 'ready' && !found && <p className="qe-missing">This reusable content is no longer in the space: readers see nothing here.</p>}
        {found && context?.host.reusableContents && <DocumentView document={found.document} links={context.host.reusableContents.links} />}
      </div>
      {editing && found && context ? (
        <EditWhereItLives id={id} title={found.title} document={found.document} directory={context.directory} host={context.host} Editor={context.Editor} onClose={() => setEditing(false)} />
      ) : null}
    </NodeViewWrapper>
  );
}

/** "Used in 3 pages", opening the list of those pages (links to them where the app has one). */
function UsedIn({ pages, links }: { pages: { id: string; title: string }[]; links: AppLinks | undefined }) {
  const label = usageLabel(pages.length);
  if (pages.length === 0) return <span className="qe-reusable-usage">{label}</span>;
  return (
    <Popover
      label="Where it is used"
      trigger={
        <Button size="sm" variant="ghost" aria-label={`${label}: where it is used`}>
          {label}
        </Button>
      }
    >
      <div className="qe-reusable-used">
        <h3>Where it is used</h3>
        <ul>
          {pages.map((page) => {
            const href = links?.page(page.id)?.href;
            return <li key={page.id}>{href ? <a href={href}>{page.title || 'Untitled'}</a> : page.title || 'Untitled'}</li>;
          })}
        </ul>
      </div>
    </Popover>
  );
}

/**
 * The reusable content opened in the editor, in a dialog over the page: saved as a whole with
 * `update_reusable_content`, then every block showing it (here and in each page using it) shows the new content.
 */
function EditWhereItLives(props: { id: string; title: string; document: Document; directory: ReusableDirectory; host: PageEditorProps; Editor: ComponentType<PageEditorProps>; onClose(): void }) {
  const edited = useRef<Document | null>(null);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState('');
  const { document: _page, onChange: _report, collaboration: _shared, revision: _revision, commentRanges: _ranges, onCommentRange: _onRange, ...host } = props.host;
  const save = async () => {
    const document = edited.current;
    if (!document) return props.onClose();
    setSaving(true);
    setFailure('');
    try {
      await props.directory.source.update(props.id, document);
      props.directory.changed(props.id);
      props.onClose();
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
      setSaving(false);
    }
  };
  return (
    <Dialog title={`Edit reusable content: ${props.title}`} size="lg" open onOpenChange={(open) => !open && !saving && props.onClose()} description="Changes show in every page that uses it once saved.">
      <div className="qe-reusable-editor">
        <props.Editor {...host} document={props.document} autofocus onChange={(document) => (edited.current = document)} />
      </div>
      {failure && <p role="alert" className="qe-failure">{failure}</p>}
      <div className="ui-dialog-actions">
        <Button variant="ghost" onClick={props.onClose} disabled={saving}>
          Cancel
        </Button>
        <Button variant="primary" loading={saving} onClick={() => void save()}>
          Save
        </Button>
      </div>
    </Dialog>
  );
}
