import { useEffect, useState } from 'react';
import { api, errorMessage, type ListPage } from '../../api/client.ts';
import type { SearchPageResult } from '../../api/types.ts';
import { Button } from '../../ui/button.tsx';
import { AnchoredPopover } from '../../ui/popover.tsx';
import { TextField } from '../../ui/text-field.tsx';

export type PickedRef = { kind: 'url'; url: string } | { kind: 'page'; page: string; title: string };

/**
 * Where a link goes: a URL typed in, or a page of the space found by its title (the space's search API).
 * Shown in the kit's popover at `rect` (what is linked: the selection, or the `/` command's text); it has the keys
 * while open, and Escape or a click elsewhere closes it.
 */
export function LinkPicker({ spaceId, rect, label = 'Link', onPick, onClose }: { spaceId: string; rect: () => DOMRect; label?: string; onPick(ref: PickedRef): void; onClose(): void }) {
  const [query, setQuery] = useState('');
  const [pages, setPages] = useState<SearchPageResult[]>([]);
  const [error, setError] = useState('');
  const isUrl = /^(https?:\/\/|mailto:|\/|#)/i.test(query.trim());
  useEffect(() => {
    if (isUrl || query.trim() === '') {
      setPages([]);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api<ListPage<SearchPageResult>>('GET', `/spaces/${encodeURIComponent(spaceId)}/search`, { query: { query, limit: 10 }, signal: controller.signal })
        .then((found) => {
          setPages(found.items);
          setError('');
        })
        .catch((e: unknown) => {
          if (!controller.signal.aborted) setError(errorMessage(e));
        });
    }, 150);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query, isUrl, spaceId]);
  return (
    <AnchoredPopover rect={rect} label={label} className="qe-link-picker" onDismiss={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (isUrl) onPick({ kind: 'url', url: query.trim() });
          else if (pages[0]) onPick({ kind: 'page', page: pages[0].id, title: pages[0].title });
        }}
      >
        <TextField label="Link to a URL or a page" autoFocus value={query} onChange={(e) => setQuery(e.target.value)} placeholder="https://… or a page title" error={error || undefined} />
        <div className="qe-link-picker-actions">
          <Button size="sm" variant="ghost" onClick={onClose}>Cancel</Button>
          <Button size="sm" variant="primary" type="submit">{label === 'Link' ? 'Apply link' : `Insert ${label.toLowerCase()}`}</Button>
        </div>
      </form>
      {pages.length > 0 && (
        <ul aria-label="Pages">
          {pages.map((page) => (
            <li key={page.id}>
              <Button variant="ghost" size="sm" onClick={() => onPick({ kind: 'page', page: page.id, title: page.title })}>
                {page.title} <small>{page.path}</small>
              </Button>
            </li>
          ))}
        </ul>
      )}
    </AnchoredPopover>
  );
}
