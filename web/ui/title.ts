import { useEffect } from 'react';

/** The tab's title names the screen (screen readers announce it on navigation). */
export function useTitle(title: string | undefined) {
  useEffect(() => {
    document.title = title ? `${title} · Quire` : 'Quire';
  }, [title]);
}
