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

/** The page's first blocks and the first block of each other kind: what opening the page will run. */
function sampleOf(document: Document): Document {
  const kinds = new Set<string>();
  const nodes = document.nodes.filter((block: FlowBlock, i) => {
    const kind = block.type;
    if (i < 12 || !kinds.has(kind)) {
      kinds.add(kind);
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
  try {
    const element = window.document.createElement('div');
    const editor = new Editor({ element, extensions: editorExtensions({ spaceId }), content: toEditor(sampleOf(document)) });
    editor.destroy();
  } catch {
    // Warming is only ever ahead of time: whatever fails here fails again, and is reported, when the page is opened.
  }
  editorContentOf(document);
  // For profiles and tests: when the warming was done.
  performance.mark('quire:editor-warmed');
}
