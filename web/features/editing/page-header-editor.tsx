import { useId, useState } from 'react';
import { emojiCharacter } from '../../../src/features/reader/emoji.ts';
import { errorMessage } from '../../api/client.ts';
import { faImage } from '@fortawesome/free-solid-svg-icons';
import { buttonClass } from '../../ui/button.tsx';
import { Icon } from '../../ui/icon.tsx';
import type { PageEdit } from './save-queue.ts';

export interface HeaderValues {
  title: string;
  description: string;
  emoji: string;
  cover?: { fileId: string; url?: string } | null;
}

/**
 * The page's title, description, emoji and cover, edited in place; each change goes to the page's autosave like
 * the body's. The cover is uploaded as a file of the space (or of the change request) first.
 */
export function PageHeaderEditor({ initial, onEdit, upload }: { initial: HeaderValues; onEdit(edit: PageEdit): void; upload(file: File): Promise<{ id: string; downloadURL: string }> }) {
  const [values, setValues] = useState(() => ({ ...initial, emoji: emojiCharacter(initial.emoji) ?? initial.emoji }));
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<unknown>(null);
  const id = useId();
  const set = <K extends 'title' | 'description' | 'emoji'>(key: K, value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
    // An empty title is not a title: it is kept in the field, and saved once it says something.
    if (key === 'title' && value.trim() === '') return;
    onEdit({ [key]: key === 'title' ? value.trim() : key === 'emoji' ? emojiCode(value) : value });
  };
  const chooseCover = async (file: File | undefined) => {
    if (!file) return;
    setUploading(true);
    setUploadError(null);
    try {
      const stored = await upload(file);
      setValues((v) => ({ ...v, cover: { fileId: stored.id, url: stored.downloadURL } }));
      onEdit({ cover: { ref: { kind: 'file', file: stored.id } } });
    } catch (error) {
      setUploadError(error);
    } finally {
      setUploading(false);
    }
  };
  return (
    <header className="page-header page-header-editor">
      {values.cover ? (
        <div className="page-cover-edit">
          {values.cover.url ? <img src={values.cover.url} alt="The page’s cover" className="page-cover" /> : <p>This page has a cover.</p>}
          <button
            type="button"
            onClick={() => {
              setValues((v) => ({ ...v, cover: null }));
              onEdit({ cover: null });
            }}
          >
            Remove the cover
          </button>
        </div>
      ) : null}
      <div className="header-row">
        <label htmlFor={`${id}-emoji`} className="sr-only">
          Page emoji
        </label>
        <input id={`${id}-emoji`} className="emoji-input" value={values.emoji} maxLength={50} placeholder="Icon" onChange={(e) => set('emoji', e.target.value)} />
        <label htmlFor={`${id}-title`} className="sr-only">
          Page title
        </label>
        <input id={`${id}-title`} className="title-input" value={values.title} maxLength={500} placeholder="Page title" aria-invalid={values.title.trim() === ''} onChange={(e) => set('title', e.target.value)} />
      </div>
      {values.title.trim() === '' ? <p className="error-note" role="alert">A page needs a title: this one is not saved until it has one.</p> : null}
      <label htmlFor={`${id}-description`} className="sr-only">
        Page description
      </label>
      <textarea id={`${id}-description`} className="description-input" value={values.description} maxLength={1000} rows={2} placeholder="Add a description" onChange={(e) => set('description', e.target.value)} />
      {/* A label around the file input, drawn as the kit's button: the input stays the control a keyboard reaches. */}
      <label className={buttonClass('secondary', 'sm', 'cover-upload')} aria-busy={uploading || undefined}>
        <Icon icon={faImage} />
        {uploading ? 'Uploading the cover…' : values.cover ? 'Replace the cover' : 'Add a cover'}
        <input type="file" accept="image/*" className="sr-only" disabled={uploading} onChange={(e) => void chooseCover(e.target.files?.[0])} />
      </label>
      {uploadError ? (
        <p className="error-note" role="alert">
          {errorMessage(uploadError)}
        </p>
      ) : null}
    </header>
  );
}

/** An emoji as GitBook stores it: its code points in hex, joined by dashes ("1f4d8"); other text as typed. */
export function emojiCode(value: string): string {
  const trimmed = value.trim();
  if (trimmed === '' || !/^\p{Extended_Pictographic}/u.test(trimmed)) return trimmed;
  return [...trimmed].map((c) => c.codePointAt(0)!.toString(16)).join('-');
}
