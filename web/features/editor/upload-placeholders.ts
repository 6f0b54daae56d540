import { Extension } from '@tiptap/core';
import { Plugin, PluginKey, type EditorState } from '@tiptap/pm/state';
import { Decoration, DecorationSet, type EditorView } from '@tiptap/pm/view';

/*
 * Files being uploaded, shown where their blocks will go (ProseMirror's upload example): a widget, not a node of
 * the document, with the image itself (from the file, before a byte is sent), how much has gone, and, when the
 * upload fails, the API's message beside it. The widget moves with the text around it (its decoration is mapped
 * through every change, the person's and the others'); once the file is stored its block is put where the widget
 * is. Nothing of an upload is in the document before it is stored, so a failed one leaves nothing half-made.
 */

type Meta = { add: Decoration } | { remove: number };

const key = new PluginKey<DecorationSet>('uploadPlaceholders');

export const UploadPlaceholders = Extension.create({
  name: 'uploadPlaceholders',
  addProseMirrorPlugins() {
    return [
      new Plugin<DecorationSet>({
        key,
        state: {
          init: () => DecorationSet.empty,
          apply(tr, set) {
            const next = set.map(tr.mapping, tr.doc);
            const meta = tr.getMeta(key) as Meta | undefined;
            if (!meta) return next;
            if ('add' in meta) return next.add(tr.doc, [meta.add]);
            return next.remove(next.find(undefined, undefined, (spec: { upload?: number }) => spec.upload === meta.remove));
          },
        },
        props: { decorations: (state) => key.getState(state) },
      }),
    ];
  },
});

/** A block boundary near `pos`: after the text block it is in, or before that block when it is empty (the caret stays there). */
function blockBoundary(state: EditorState, pos: number): number {
  const $pos = state.doc.resolve(Math.min(Math.max(pos, 0), state.doc.content.size));
  if (!$pos.parent.isTextblock || $pos.depth === 0) return $pos.pos;
  return $pos.parent.content.size === 0 ? $pos.before() : $pos.after();
}

let uploads = 0;

/** One file's upload, shown in the editor until it is stored (`finish`) or dismissed after it failed. */
export class UploadPlaceholder {
  private readonly id = ++uploads;
  private readonly element: HTMLElement;
  private readonly status: HTMLElement;
  private readonly progressBar: HTMLProgressElement;
  private readonly preview: string | undefined;

  constructor(
    private readonly view: EditorView,
    pos: number,
    private readonly file: File,
    /** Its place among uploads started together at the same position: they keep their order. */
    order: number,
  ) {
    const name = file.name || 'file';
    this.element = document.createElement('figure');
    this.element.className = 'qe-upload';
    this.element.contentEditable = 'false';
    this.element.setAttribute('role', 'group');
    this.element.setAttribute('aria-label', `Upload of ${name}`);
    if (file.type.startsWith('image/')) {
      this.preview = URL.createObjectURL(file);
      const image = document.createElement('img');
      image.src = this.preview;
      image.alt = name;
      this.element.append(image);
    }
    const caption = document.createElement('figcaption');
    this.progressBar = document.createElement('progress');
    this.progressBar.max = 1;
    this.progressBar.value = 0;
    this.progressBar.setAttribute('aria-label', `Uploading ${name}`);
    this.status = document.createElement('span');
    this.status.setAttribute('role', 'status');
    this.status.textContent = `Uploading ${name}…`;
    caption.append(this.progressBar, ' ', this.status);
    this.element.append(caption);
    const widget = Decoration.widget(blockBoundary(view.state, pos), this.element, {
      upload: this.id,
      // After content inserted at its place (an earlier upload's block), in the order the files were given.
      side: 1 + order,
      ignoreSelection: true,
      stopEvent: () => true,
    });
    view.dispatch(view.state.tr.setMeta(key, { add: widget } satisfies Meta).setMeta('addToHistory', false));
  }

  progress(fraction: number): void {
    this.progressBar.value = Math.min(1, Math.max(0, fraction));
    this.status.textContent = `Uploading ${this.file.name || 'file'}… ${Math.round(this.progressBar.value * 100)}%`;
  }

  /** Where the file's block goes: the widget's place now, or undefined when what held it was deleted. */
  private position(): number | undefined {
    const set = key.getState(this.view.state);
    return set?.find(undefined, undefined, (spec: { upload?: number }) => spec.upload === this.id)[0]?.from;
  }

  /** The file is stored: the widget goes, and its place is returned for the block. */
  finish(): number | undefined {
    const pos = this.position();
    this.remove();
    return pos;
  }

  /** The upload failed: the widget stays with the reason beside the image, until the person dismisses it. */
  fail(message: string): void {
    this.progressBar.remove();
    this.status.remove();
    const alert = document.createElement('p');
    alert.className = 'qe-failure';
    alert.setAttribute('role', 'alert');
    alert.textContent = `${this.file.name || 'The file'} could not be uploaded: ${message}`;
    const dismiss = document.createElement('button');
    dismiss.type = 'button';
    dismiss.textContent = 'Dismiss';
    dismiss.addEventListener('click', () => this.remove());
    this.element.querySelector('figcaption')?.append(alert, dismiss);
  }

  private remove(): void {
    if (this.preview) URL.revokeObjectURL(this.preview);
    if (!this.view.isDestroyed) this.view.dispatch(this.view.state.tr.setMeta(key, { remove: this.id } satisfies Meta).setMeta('addToHistory', false));
  }
}
