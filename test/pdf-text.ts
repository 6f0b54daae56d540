import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/*
 * PDFs read back as a reader opens them: pdf.js (Firefox's reader; pdfjs-dist, which npm ci installs, in its
 * build for Node), so that the tests need no system package (poppler's pdftotext did, and failed on a fresh machine).
 */

export interface PdfText {
  /** How many pages the PDF has. */
  pages: number;
  /**
   * Its text in the order the pages draw it, which is the reading order of what Quire lays out: a line per line of
   * the page, the pages separated by form feeds (as pdftotext writes them).
   */
  text: string;
}

export async function readPdf(bytes: Uint8Array): Promise<PdfText> {
  // pdf.js takes the buffer it is given over: a copy leaves the caller's bytes alone.
  const task = getDocument({ data: new Uint8Array(bytes), verbosity: 0, isEvalSupported: false });
  const pdf = await task.promise;
  try {
    const pages: string[] = [];
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number);
      let text = '';
      for (const item of (await page.getTextContent()).items) {
        // Items without `str` are marked-content boundaries, not text.
        if (!('str' in item)) continue;
        text += item.str;
        if (item.hasEOL) text += '\n';
      }
      pages.push(text);
      page.cleanup();
    }
    return { pages: pdf.numPages, text: pages.join('\f') };
  } finally {
    await task.destroy();
  }
}
