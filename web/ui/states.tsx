import type { ReactNode } from 'react';
import { errorMessage } from '../api/client.ts';

/** Grey bars where content is coming: the layout stays put instead of a blank screen. */
export function Skeleton({ lines = 3, label = 'Loading' }: { lines?: number; label?: string }) {
  return (
    <div className="skeleton" role="status" aria-live="polite">
      <span className="sr-only">{label}…</span>
      {Array.from({ length: lines }, (_, i) => (
        <div key={i} className="skeleton-line" style={{ width: `${90 - ((i * 17) % 40)}%` }} />
      ))}
    </div>
  );
}

/** The API's message, next to what failed. */
export function ErrorNote({ error, children }: { error: unknown; children?: ReactNode }) {
  if (!error) return null;
  return (
    <p className="error-note" role="alert">
      {errorMessage(error)}
      {children}
    </p>
  );
}

export function NotFound({ what = 'page' }: { what?: string }) {
  return (
    <section className="not-found">
      <h1>Not found</h1>
      <p>There is no such {what}, or you cannot see it.</p>
      <p>
        <a href="/app/">Go to your organizations</a>
      </p>
    </section>
  );
}
