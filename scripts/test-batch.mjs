// One test process for several test files (scripts/test.mjs). Each file becomes a top-level suite named by its
// path, whose tests, hooks included, are the file's: the suites run one after the other, as the files would in
// processes of their own, but loading the server and compiling its schemas happens once per batch.
import { after, describe } from 'node:test';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

// Imported here, outside the files' suites, so that the hook keeping a failed browser test's pages is the
// process's and not only that of the first file that imports it (an ES module runs once).
// It also makes the batch's browser suites share one Chromium, closed after the batch's last test.
const { shareChromium } = await import('../test/browser.ts');
after(shareChromium());

for (const file of process.argv.slice(2)) {
  describe(file, async () => {
    await import(pathToFileURL(resolve(file)).href);
  });
}
