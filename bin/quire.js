#!/usr/bin/env node
// The package's command. It runs the build in dist/ (made by `npm ci` / `npm run build`) with plain node: no
// transpiler process beside the server. QUIRE_FROM_SOURCE=1 runs src/ through tsx instead (development and
// the tests, which must not depend on a build that may be stale).
import { existsSync } from 'node:fs';

const fromSource = process.env.QUIRE_FROM_SOURCE === '1';
const built = new URL('../dist/main.js', import.meta.url);
if (!fromSource && !existsSync(built)) {
  console.error('quire: the build is missing (dist/main.js). Run `npm run build` (`npm ci` runs it), or set QUIRE_FROM_SOURCE=1 to run the sources through tsx.');
  process.exit(1);
}
if (fromSource) {
  const { register } = await import('tsx/esm/api');
  register();
}
const { main, exitCodeOf } = await import(fromSource ? '../src/main.ts' : built.href);
main(process.argv.slice(2)).catch((error) => {
  console.error(error instanceof Error ? error.message : String(error));
  // 2: the command refused its input and wrote nothing; 1: it failed.
  process.exit(exitCodeOf(error));
});
