import { Editor } from '@tiptap/core';
import type { Document, FlowBlock } from '../../../src/features/content/document/types.ts';
import { toEditor } from '../../../src/features/content/document/editor/blocks.ts';
import { editorContentOf } from './editor-content.ts';
import { editorExtensions } from './extensions.ts';

/*
 * Opening the editor ahead of the click on "Edit" (issue 42). A page's first editor runs code the app has not run
 * yet, and the browser compiles each function on its first call: a profile of the click-to-caret of a 300-block page
 * found about a fifth of it compiling. While a page the person may edit is shown and the browser is idle, an editor
 * of a sample of the page (its first blocks and one block of each kind) is built off the page and destroyed, and the
 * page's document is converted for the editor: the click then builds the editor with compiled code, from the
 * document already converted.
 */

/** The kinds of block an editor was built with ahead already: the code they run is compiled once a page load. */
const warmedKinds = new Set<string>();

/**
 * What opening the page will run that no editor ran yet: on the first page, its first blocks and one block of each
 * kind; on the next ones, one block of each kind not seen before (none: nothing to build).
 */
function sampleOf(document: Document): Document {
  const first = warmedKinds.size === 0;
  const nodes = document.nodes.filter((block: FlowBlock, i) => {
    if ((first && i < 12) || !warmedKinds.has(block.type)) {
      warmedKinds.add(block.type);
      return true;
    }
    return false;
  });
  return { ...document, nodes };
}

const warmed = new WeakSet<Document>();

/** Builds and destroys an editor of a sample of `document` off the page, then converts the whole document. */
export function warmUpEditor(document: Document, spaceId: string): void {
  if (warmed.has(document)) return;
  warmed.add(document);
  const sample = sampleOf(document);
  try {
    if (sample.nodes.length > 0) new Editor({ element: window.document.createElement('div'), extensions: editorExtensions({ spaceId }), content: toEditor(sample) }).destroy();
  } catch {
    // Warming is only ever ahead of time: whatever fails here fails again, and is reported, when the page is opened.
  }
  editorContentOf(document);
  // For profiles and tests: when the warming was done.
  performance.mark('quire:editor-warmed');
}
