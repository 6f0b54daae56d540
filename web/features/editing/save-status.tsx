import { statusText, type SaveState } from './save-queue.ts';

/** Where the page's edits stand, announced to screen readers as it changes. */
export function SaveStatus({ state, where }: { state: SaveState; where: string }) {
  return (
    <p className={`save-status save-${state.status}`} role="status" aria-live="polite" aria-label="Save status">
      {statusText(state)}
      <span className="save-where"> · {where}</span>
    </p>
  );
}
