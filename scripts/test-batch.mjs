// One test process for several test files (scripts/test.mjs). Each file becomes a top-level suite named by its
// path, whose tests, hooks included, are the file's: the suites run one after the other, as the files would in
// processes of their own, but loading the server and compiling its schemas happens once per batch.
import { describe } from 'node:test';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

for (const file of process.argv.slice(2)) {
  describe(file, async () => {
    await import(pathToFileURL(resolve(file)).href);
  });
}
