import type { Editor } from '@tiptap/core';
import { useState, type FormEvent } from 'react';
import { fromEditor } from '../../../../src/features/content/document/editor/blocks.ts';
import type { PMNode } from '../../../../src/features/content/document/editor/editor-json.ts';
import { Button } from '../../../ui/button.tsx';
import { Dialog } from '../../../ui/dialogs.tsx';
import { TextField } from '../../../ui/text-field.tsx';
import type { BlockRun } from './block-run.ts';
import type { ReusableDirectory } from './reusable-directory.ts';
import { reusableNode, suggestedTitle } from './reusable-model.ts';

/**
 * "Create reusable content": asks its title, stores the blocks as a new reusable content, then replaces them with
 * a block including it, in one step of the page's history (undone as one). A refused request changes nothing in
 * the page: the message shows and the blocks stay.
 */
export function CreateReusableDialog({ editor, run, directory, onClose }: { editor: Editor; run: BlockRun; directory: ReusableDirectory; onClose(): void }) {
  const [title, setTitle] = useState(() => suggestedTitle(editor.state.doc.textBetween(run.from, run.to, '\n')));
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState('');
  const taken = editor.state.doc.slice(run.from, run.to).content;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!title.trim()) return setFailure('A title says what it is where it is picked.');
    setSaving(true);
    setFailure('');
    try {
      const document = fromEditor({ type: 'doc', content: taken.toJSON() as PMNode[] });
      const created = await directory.source.create(title.trim(), document);
      directory.changed(created.id);
      // The blocks are replaced only if they are still there as they were taken (someone editing with this person
      // may have changed them meanwhile): then the reusable content exists and is inserted from the `/` menu.
      const { state } = editor;
      if (editor.isDestroyed || run.to > state.doc.content.size || !state.doc.slice(run.from, run.to).content.eq(taken)) {
        setFailure(`“${created.title}” was created, but the page changed meanwhile: insert it from the / menu.`);
        setSaving(false);
        return;
      }
      const node = state.schema.nodeFromJSON(reusableNode(created.id));
      editor.view.dispatch(state.tr.replaceWith(run.from, run.to, node).scrollIntoView());
      onClose();
      editor.commands.focus();
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
      setSaving(false);
    }
  };
  return (
    <Dialog
      title="Create reusable content"
      description="The selected blocks become reusable content of the space: this page then includes it, and other pages can too."
      open
      onOpenChange={(open) => !open && !saving && onClose()}
    >
      <form onSubmit={(event) => void submit(event)}>
        <TextField label="Title" value={title} autoFocus required onChange={(event) => setTitle(event.target.value)} />
        {failure && <p role="alert" className="qe-failure">{failure}</p>}
        <div className="ui-dialog-actions">
          <Button variant="ghost" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" loading={saving}>
            Create
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
