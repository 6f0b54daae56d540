import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { Document } from '../../src/features/content/document/types.ts';

/*
 * The real built editor on a blank element of an app page (signed in, same origin, the app's CSP): the chunk
 * of web/features/editor/mount.tsx found through dist/web's manifest, imported in the page. What it reports
 * through `onChange` is kept on `window.__changes`.
 */

const MANIFEST = join(import.meta.dirname, '..', '..', 'dist', 'web', '.vite', 'manifest.json');

export function editorChunk(): { js: string; css: string[] } {
  const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Record<string, { file: string; css?: string[]; imports?: string[] }>;
  const entry = manifest['features/editor/mount.tsx'];
  if (!entry) throw new Error('the editor chunk is not in dist/web: build the web app');
  // The stylesheets of every chunk the entry imports: the editor's own is its chunk's (page-editor), which the app
  // shares and Vite links only when it loads that chunk through a dynamic import, not under a static one.
  const css = new Set<string>();
  const seen = new Set<string>();
  const visit = (name: string) => {
    const chunk = manifest[name];
    if (!chunk || seen.has(name)) return;
    seen.add(name);
    for (const file of chunk.css ?? []) css.add(`/app/${file}`);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit('features/editor/mount.tsx');
  return { js: `/app/${entry.file}`, css: [...css] };
}

export interface MountOptions {
  spaceId: string;
  organizationId: string;
  readOnly?: boolean;
  /** Files of the space the document points to (the host's `files`); any other is one the space does not have. */
  files?: { id: string; name: string; contentType: string; size: number; downloadURL: string }[];
}

/** Mounts the editor on `document` (replacing whatever the page showed); resolves once it is shown. */
export async function mountEditor(page: Page, document: Document, options: MountOptions): Promise<void> {
  const chunk = editorChunk();
  // A script, not a function: tsx names functions with a helper (__name) the page does not have.
  await page.evaluate(`(async () => {
    const chunk = ${JSON.stringify(chunk)};
    const w = window;
    w.__unmount?.();
    for (const href of chunk.css) {
      if (!document.querySelector('link[href="' + href + '"]')) {
        const link = document.createElement('link');
        link.rel = 'stylesheet';
        link.href = href;
        document.head.append(link);
        await new Promise((resolve) => link.addEventListener('load', resolve, { once: true }));
      }
    }
    const { mountPageEditor } = await import(chunk.js);
    const main = document.createElement('main');
    // Room on the left for the block handle, which sits beside a block: at the window's edge it would be off screen.
    main.style.padding = '16px 16px 16px 80px';
    window.scrollTo(0, 0);
    const title = document.createElement('h1');
    title.textContent = 'Editing a page';
    const host = document.createElement('div');
    main.append(title, host);
    document.body.replaceChildren(main);
    w.__changes = [];
    w.__uploads = [];
    // Images imported from their address (those whose address holds w.__importFailure fail, as the server refuses one).
    w.__imports = [];
    const given = ${JSON.stringify(document)};
    w.__mounted = JSON.stringify(given);
    const { files: known = [], ...options } = ${JSON.stringify(options)};
    // The host's side: a directory of files, and uploads kept as blob URLs (w.__uploadFailure makes the next one fail).
    const files = new Map(known.map((file) => [file.id, file]));
    const listeners = new Set();
    const changed = () => listeners.forEach((listener) => listener());
    w.__unmount = mountPageEditor(host, {
      document: given,
      ...options,
      onChange: (changed) => w.__changes.push(changed),
      files: {
        get: (id) => files.get(id),
        load: (id) => {
          if (!files.has(id)) files.set(id, null);
          changed();
        },
        subscribe: (listener) => {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
      },
      importFile: async (url) => {
        w.__imports.push(url);
        if (w.__importFailure && url.includes(w.__importFailure)) throw new Error('Cannot download ' + url + ': the server answered HTTP 404');
        const stored = { id: 'imported-' + w.__imports.length, name: url.split('/').pop(), contentType: 'image/png', size: 1, downloadURL: url };
        files.set(stored.id, stored);
        changed();
        return stored;
      },
      uploadFile: async (file, onProgress) => {
        w.__uploads.push(file.name);
        onProgress?.(1);
        if (w.__uploadFailure) throw new Error(w.__uploadFailure);
        const stored = { id: 'uploaded-' + w.__uploads.length, name: file.name, contentType: file.type, size: file.size, downloadURL: URL.createObjectURL(file) };
        files.set(stored.id, stored);
        changed();
        return stored;
      },
    });
  })()`);
  await page.locator('.qe-content').waitFor();
}

/** The documents the editor reported, oldest first. */
export async function changes(page: Page): Promise<Document[]> {
  return page.evaluate(() => (window as unknown as { __changes: Document[] }).__changes);
}

export async function lastChange(page: Page): Promise<Document | undefined> {
  // Only the last one crosses the DevTools protocol: a test that types a lot would otherwise copy every
  // document reported so far on each question.
  return page.evaluate(() => (window as unknown as { __changes: Document[] }).__changes.at(-1));
}

/** Whether every document the editor reported since it was mounted is the one it was given, key for key. */
export async function reportedOnlyWhatWasMounted(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const w = window as unknown as { __changes: Document[]; __mounted: string };
    return w.__changes.every((changed) => JSON.stringify(changed) === w.__mounted);
  });
}
