import { useEffect, useState } from 'react';
import { iconShape, iconsLoaded, loadIcons, type IconSets } from '../../../src/features/reader/icon-shapes.ts';

/*
 * The whole sets, each its own chunk. The app imports a few solid icons by name (faCheck…) into its first chunk;
 * importing the package's module here as well would put all 2,000 there, so the sets are imported under another
 * module id (`?sets`: the same file, bundled apart).
 */
const importSets = () => Promise.all([import('@fortawesome/free-solid-svg-icons?sets'), import('@fortawesome/free-brands-svg-icons?sets')]) as Promise<IconSets>;

/**
 * A named icon (an `icon` inline, GitBook's Font Awesome names) as the reader draws it: the same sets, shapes and
 * classes (reader/icon-set.tsx). The sets are their own chunks, loaded when a page first names an icon; nothing
 * shows until then, nor for a name the sets do not have.
 */
export function NamedIcon({ name, className = 'named-icon' }: { name: unknown; className?: string }) {
  const ready = useIconSets();
  const shape = ready ? iconShape(name) : null;
  if (!shape) return null;
  return (
    <svg className={className} viewBox={`0 0 ${shape.width} ${shape.height}`} fill="currentColor" aria-hidden="true" focusable="false">
      {shape.paths.map((d, i) => (
        <path key={i} d={d} />
      ))}
    </svg>
  );
}

/** Whether the icon sets are loaded, loading them on first use (an icon, an icon picker). */
export function useIconSets(): boolean {
  const [ready, setReady] = useState(iconsLoaded);
  useEffect(() => {
    if (ready) return;
    let current = true;
    loadIcons(importSets).then(
      () => current && setReady(true),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [ready]);
  return ready;
}
