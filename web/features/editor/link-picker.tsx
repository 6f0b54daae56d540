import { useEffect, useId, useState } from 'react';
import { api, errorMessage, type ListPage } from '../../api/client.ts';
import type { SearchPageResult } from '../../api/types.ts';
import { Button } from '../../ui/button.tsx';

export type PickedRef = { kind: 'url'; url: string } | { kind: 'page'; page: string; title: string };

/**
 * Where a link goes: a URL typed in, or a page of the space found by its title (the space's search API).
 * Shown as a small dialog over the editor; Escape closes it.
 */
export function LinkPicker({ spaceId, label = 'Link', onPick, onClose }: { spaceId: string; label?: string; onPick(ref: PickedRef): void; onClose(): void }) {
  const [query, setQuery] = useState('');
  const [pages, setPages] = useState<SearchPageResult[]>([]);
  const [error, setError] = useState('');
  const id = useId();
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
    <div className="qe-link-picker" role="dialog" aria-label={label} onKeyDown={(e) => e.key === 'Escape' && onClose()}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (isUrl) onPick({ kind: 'url', url: query.trim() });
          else if (pages[0]) onPick({ kind: 'page', page: pages[0].id, title: pages[0].title });
        }}
      >
        <label htmlFor={id}>Link to a URL or a page</label>
        <input id={id} autoFocus value={query} onChange={(e) => setQuery(e.target.value)} placeholder="https://… or a page title" />
        <Button size="sm" variant="primary" type="submit">{label === 'Link' ? 'Apply link' : `Insert ${label.toLowerCase()}`}</Button>
        <Button size="sm" variant="ghost" onClick={onClose}>Cancel</Button>
      </form>
      {error && <p role="alert">{error}</p>}
      {pages.length > 0 && (
        <ul aria-label="Pages">
          {pages.map((page) => (
            <li key={page.id}>
              <button type="button" onClick={() => onPick({ kind: 'page', page: page.id, title: page.title })}>
                {page.title} <small>{page.path}</small>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
