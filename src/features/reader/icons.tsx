import type { VNode } from 'preact';

/*
 * The few icons the reader draws, inline (no icon font, no request): 24×24 strokes in currentColor, so they
 * follow the theme. Always decorative: the element around them carries the accessible name.
 */

function icon(...paths: string[]): VNode {
  return (
    <svg class="icon" viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">
      {paths.map((d) => (
        <path d={d} />
      ))}
    </svg>
  );
}

export const ICONS = {
  info: icon('M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20z', 'M12 16v-4', 'M12 8h.01'),
  warning: icon('M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z', 'M12 9v4', 'M12 17h.01'),
  danger: icon('M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20z', 'm15 9-6 6', 'm9 9 6 6'),
  success: icon('M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20z', 'm9 12 2 2 4-4'),
  external: icon('M15 3h6v6', 'M10 14 21 3', 'M18 13v6a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2h6'),
  file: icon('M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8z', 'M14 2v6h6', 'M12 18v-6', 'm9 15 3 3 3-3'),
  page: icon('M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8z', 'M14 2v6h6', 'M16 13H8', 'M16 17H8'),
  search: icon('M11 19a8 8 0 1 0 0-16 8 8 0 0 0 0 16z', 'm21 21-4.3-4.3'),
  menu: icon('M4 6h16', 'M4 12h16', 'M4 18h16'),
  close: icon('M18 6 6 18', 'm6 6 12 12'),
  download: icon('M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4', 'm7 10 5 5 5-5', 'M12 15V3'),
  sun: icon('M12 16a4 4 0 1 0 0-8 4 4 0 0 0 0 8z', 'M12 2v2', 'M12 20v2', 'm4.9 4.9 1.4 1.4', 'm17.7 17.7 1.4 1.4', 'M2 12h2', 'M20 12h2', 'm6.3 17.7-1.4 1.4', 'm19.1 4.9-1.4 1.4'),
  moon: icon('M12 3a6 6 0 0 0 9 9 9 9 0 1 1-9-9z'),
  chevronRight: icon('m9 18 6-6-6-6'),
  chevronLeft: icon('m15 18-6-6 6-6'),
  link: icon('M10 13a5 5 0 0 0 7.5.5l3-3a5 5 0 0 0-7-7l-1.7 1.7', 'M14 11a5 5 0 0 0-7.5-.5l-3 3a5 5 0 0 0 7 7l1.7-1.7'),
} as const;

export const HINT_ICONS = { info: ICONS.info, warning: ICONS.warning, danger: ICONS.danger, success: ICONS.success } as const;
