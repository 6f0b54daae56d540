import { createContext } from 'react';

/*
 * Whether the editor's controls are drawn yet. The editor draws its page first and its controls (the toolbar, block
 * settings, block menu, and the buttons and menus of the blocks that have them: a table's) the frame after, so that
 * the caret shows as soon as the page does (issue 42). Outside an editor that defers them, they are drawn at once.
 */
export const ControlsShown = createContext(true);
