// Reads PDFs for test/pdf-text.ts in a thread of its own: pdf.js's build for Node 20 installs polyfills on the
// global object (Iterator among them), which here stay out of the test process, where jsdom, seeing a global
// Iterator, asked its window for one that Node 20 does not have.
import { parentPort } from 'node:worker_threads';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

async function read(bytes) {
  const task = getDocument({ data: bytes, verbosity: 0, isEvalSupported: false });
  const pdf = await task.promise;
  try {
    const pages = [];
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

parentPort.on('message', async ({ id, bytes }) => {
  try {
    parentPort.postMessage({ id, result: await read(bytes) });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
