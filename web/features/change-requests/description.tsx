import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useMemo, useState, type FormEvent } from 'react';
import { keys } from '../../api/queries.ts';
import type { ChangeRequest } from '../../api/types.ts';
import type { Document } from '../../../src/features/content/document/types.ts';
import { ErrorNote } from '../../ui/states.tsx';
import { DocumentView } from '../pages/render-document.tsx';
import { revisionLinks } from '../review/revision-links.ts';
import { descriptionFromText, descriptionToText, isPlainDescription } from './description-text.ts';
import { reviewApi } from './review-api.ts';
import { Button } from '../../ui/button.tsx';
import { TextArea } from '../../ui/text-field.tsx';

/**
 * A change request's description (the official `description`, a JSON document): shown as the reader would render
 * it, and edited as plain text (updateChangeRequestById) by whoever may edit the space.
 */
export function Description({ spaceId, cr, mayEdit }: { spaceId: string; cr: ChangeRequest; mayEdit: boolean }) {
  const description = cr.description as Document | undefined;
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState('');
  const queryClient = useQueryClient();
  const id = useId();
  const links = useMemo(() => revisionLinks(spaceId, undefined), [spaceId]);
  const save = useMutation({
    mutationFn: () => reviewApi.update(spaceId, String(cr.number), { description: descriptionFromText(text) }),
    onSuccess: async () => {
      setEditing(false);
      await queryClient.invalidateQueries({ queryKey: keys.changeRequest(spaceId, String(cr.number)) });
    },
  });
  const canEdit = mayEdit && cr.status !== 'merged';
  if (!editing) {
    return (
      <section className="cr-description" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`}>Description</h2>
        {description && description.nodes.length > 0 ? <DocumentView document={description} links={links} /> : <p className="muted">No description yet.</p>}
        {canEdit ? (
          <Button onClick={() => (setText(descriptionToText(description)), setEditing(true))}>
            Edit description
          </Button>
        ) : null}
      </section>
    );
  }
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form className="cr-description review-form" onSubmit={onSubmit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Description</h2>
      <TextArea
        label="Description"
        hint={`Plain text; a blank line starts a new paragraph.${isPlainDescription(description) ? '' : ' Saving replaces the formatting the description has now with this text.'}`}
        rows={6}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <div className="thread-actions">
        <Button variant="primary" type="submit" disabled={save.isPending}>Save description</Button>
        <Button onClick={() => setEditing(false)}>Cancel</Button>
      </div>
      <ErrorNote error={save.error} />
    </form>
  );
}
