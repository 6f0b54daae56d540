import type { VNode } from 'preact';
import { iconShape, loadIcons as loadIconSets } from './icon-shapes.ts';

/** Loads the icon sets (icon-shapes.ts), once. */
export const loadIcons = (): Promise<void> => loadIconSets(() => Promise.all([import('@fortawesome/free-solid-svg-icons'), import('@fortawesome/free-brands-svg-icons')]));

/** The icon as an inline, decorative SVG, or null (unknown name, or loadIcons() not awaited). */
export function namedIcon(name: unknown, className = 'named-icon'): VNode | null {
  const shape = iconShape(name);
  if (!shape) return null;
  return (
    <svg class={className} viewBox={`0 0 ${shape.width} ${shape.height}`} fill="currentColor" aria-hidden="true" focusable="false">
      {shape.paths.map((d) => (
        <path d={d} />
      ))}
    </svg>
  );
}
