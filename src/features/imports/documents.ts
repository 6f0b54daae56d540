import { unzipSync } from 'fflate';
import mammoth from 'mammoth';
import { ApiError } from '../../platform/errors.ts';
import { decodeHtml, htmlPageToMarkdown, readHtmlPage } from './html-to-markdown.ts';

/*
 * The single-document and archive sources of importContent, from the bytes fetched at the import's URL:
 * `markdown` as it is, `html` through the same reader as website pages (nesting and size capped), `docx` through
 * mammoth (Word to HTML, a maintained converter) then the same reader, its images handed to the caller as
 * files; `zip` unpacked (bounded) into a file map that the Git Sync reader turns into pages.
 */

export interface ImportedImage {
  /** What the markdown names it by until the batch gives it a file. */
  ref: string;
  name: string;
  contentType: string;
  bytes: Buffer;
}

export interface ImportedDocument {
  /** Markdown with front matter holding the title. */
  markdown: string;
  images: ImportedImage[];
}

/** A title from the last segment of the URL's path, without its extension. */
export function titleOfUrl(url: string, extension: RegExp): string {
  const last = new URL(url).pathname.split('/').filter(Boolean).pop() ?? '';
  let name = last;
  try {
    name = decodeURIComponent(last);
  } catch {
    // kept as written
  }
  return name.replace(extension, '').replace(/[-_]+/g, ' ').trim().slice(0, 500) || 'Imported page';
}

function withTitle(title: string | undefined, body: string): string {
  return title ? `---\ntitle: ${JSON.stringify(title)}\n---\n\n${body}\n` : `${body}\n`;
}

export function markdownDocument(bytes: Buffer, url: string): ImportedDocument {
  const text = new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '');
  // A title the file gives (front matter, a leading heading) wins; else the file's name, as a heading after
  // any front matter.
  const fm = /^---[ \t]*\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  const front = fm ? fm[0] : '';
  const body = text.slice(front.length);
  if (/^title:/m.test(front) || /^\s*#[ \t]+\S/.test(body)) return { markdown: text, images: [] };
  return { markdown: `${front}# ${titleOfUrl(url, /\.(md|markdown|mdx|txt)$/i)}\n\n${body}`, images: [] };
}

export function htmlDocument(bytes: Buffer, contentType: string | undefined, url: string): ImportedDocument {
  const page = readHtmlPage(decodeHtml(bytes, contentType), url);
  const body = htmlPageToMarkdown(page, (_kind, target) => target.href);
  return { markdown: withTitle(page.title ?? titleOfUrl(url, /\.x?html?$/i), body), images: [] };
}

/**
 * Word documents: mammoth writes HTML (images as references to files of the import), then as an HTML page. The
 * images' refs start with `refPrefix`, so that several documents of one import keep theirs apart.
 */
export async function docxDocument(bytes: Buffer, url: string, maxImageBytes: number, refPrefix = 'docx-image-'): Promise<ImportedDocument> {
  const images: ImportedImage[] = [];
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: bytes },
      {
        convertImage: mammoth.images.imgElement(async (image) => {
          const data = Buffer.from(await image.readAsArrayBuffer());
          if (data.length > maxImageBytes) return { src: '' };
          const ref = `${refPrefix}${images.length + 1}`;
          const extension = image.contentType.split('/')[1]?.replace(/[^a-z0-9]/gi, '') || 'bin';
          images.push({ ref, name: `${ref}.${extension}`, contentType: image.contentType, bytes: data });
          return { src: `https://docx.invalid/${ref}` };
        }),
      },
    );
    html = result.value;
  } catch (error) {
    throw new ApiError(422, `Cannot import ${url}: it is not a Word (.docx) document (${error instanceof Error ? error.message.split('\n')[0] : 'unreadable'})`);
  }
  const page = readHtmlPage(`<main>${html}</main>`, url);
  const body = htmlPageToMarkdown(page, (kind, target) => (kind === 'image' && target.host === 'docx.invalid' ? `./${target.pathname.slice(1)}` : target.href));
  return { markdown: withTitle(page.title ?? titleOfUrl(url, /\.docx$/i), body), images };
}

/**
 * The files of a zip archive by path. Bounded before anything is inflated (the sizes the archive declares, in
 * number and in bytes); folders, macOS metadata and paths that climb out are skipped. An archive whose files
 * all sit in one folder is read from inside it.
 */
export function unzipArchive(bytes: Buffer, url: string, limits: { maxBytes: number; maxFiles: number }): Map<string, Buffer> {
  let declared = 0;
  let count = 0;
  let unzipped: Record<string, Uint8Array>;
  try {
    unzipped = unzipSync(bytes, {
      filter(file) {
        if (file.name.endsWith('/') || /(^|\/)(__MACOSX|\.DS_Store)(\/|$)/.test(file.name)) return false;
        count += 1;
        declared += file.originalSize;
        if (count > limits.maxFiles) throw new ApiError(413, `Cannot import ${url}: the archive has more than ${limits.maxFiles} files`);
        if (declared > limits.maxBytes) throw new ApiError(413, `Cannot import ${url}: the archive unpacks to more than the ${limits.maxBytes} bytes an import reads (IMPORT_MAX_BYTES)`);
        return true;
      },
    });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError(422, `Cannot import ${url}: it is not a zip archive (${error instanceof Error ? error.message : 'unreadable'})`);
  }
  const files = new Map<string, Buffer>();
  for (const [name, data] of Object.entries(unzipped)) {
    const path = name.replace(/\\/g, '/').replace(/^\/+/, '');
    if (path.split('/').some((s) => s === '..' || s === '')) continue;
    files.set(path, Buffer.from(data));
  }
  const tops = new Set([...files.keys()].map((p) => (p.includes('/') ? p.slice(0, p.indexOf('/')) : '')));
  if (tops.size === 1 && !tops.has('')) {
    const prefix = `${[...tops][0]}/`;
    return new Map([...files].map(([p, b]) => [p.slice(prefix.length), b]));
  }
  return files;
}
