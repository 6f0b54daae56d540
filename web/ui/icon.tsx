import type { IconDefinition } from '@fortawesome/free-solid-svg-icons';

/*
 * The app's icons are Font Awesome Free's solid set, the one the reader draws pages' icons with: one set for the
 * reader, the app and the editor. Screens import each icon by name (`import { faSun } from
 * '@fortawesome/free-solid-svg-icons'`), so the bundle holds only the icons it uses.
 */

/** A decorative icon: the control around it carries the name (a label, or IconButton's `label`). */
export function Icon({ icon, className }: { icon: IconDefinition; className?: string }) {
  const [width, height, , , path] = icon.icon;
  return (
    <svg className={className ? `ui-icon ${className}` : 'ui-icon'} viewBox={`0 0 ${width} ${height}`} fill="currentColor" aria-hidden="true" focusable="false">
      {Array.isArray(path) ? path.map((d, i) => <path key={i} d={d} />) : <path d={path} />}
    </svg>
  );
}
