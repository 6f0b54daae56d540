import type { ReactNode } from 'react';
import { errorMessage } from '../api/client.ts';
import { buttonClass } from './button.tsx';

/**
 * Grey bars where content is coming: the layout stays put instead of a blank screen. (Its `skeleton` class is what
 * the browser tests wait to see gone.)
 */
export function Skeleton({ lines = 3, label = 'Loading' }: { lines?: number; label?: string }) {
  return (
    <div className="skeleton ui-skeleton" role="status" aria-live="polite">
      <span className="sr-only">{label}…</span>
      {Array.from({ length: lines }, (_, i) => (
        <div key={i} className="ui-skeleton-line" style={{ width: `${90 - ((i * 17) % 40)}%` }} />
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

/**
 * What an empty screen or section says: what it is for, and its first action (a Button or a link), instead of
 * "None yet.".
 */
export function EmptyState({ title, children, action, headingLevel = 2 }: { title: string; children?: ReactNode; action?: ReactNode; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section className="ui-empty-state">
      <Heading className="ui-empty-state-title">{title}</Heading>
      {children ? <div className="ui-empty-state-body">{children}</div> : null}
      {action ? <div className="ui-empty-state-action">{action}</div> : null}
    </section>
  );
}

/**
 * A screen with nothing to show (no such page, or one the person cannot see), drawn as the kit's empty state: what
 * happened, and the way back. It keeps the screen's one h1.
 */
export function NotFound({ what = 'page' }: { what?: string }) {
  return (
    <section className="ui-empty-state not-found">
      <h1 className="ui-empty-state-title">Not found</h1>
      <div className="ui-empty-state-body">
        <p>There is no such {what}, or you cannot see it.</p>
      </div>
      <div className="ui-empty-state-action">
        <a className={buttonClass('primary')} href="/app/">Go to your organizations</a>
      </div>
    </section>
  );
}
