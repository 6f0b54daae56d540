#!/usr/bin/env node
// Builds the server to plain JavaScript in dist/ (run by `npm ci` and `npm install` through `prepare`, or by
// `npm run build`): tsc emits src/ (tests excluded) with `.ts` imports rewritten to `.js`, then every file
// under src/ that is not TypeScript (stylesheets, scripts, images a feature serves) is copied beside it, and
// Vite builds the members' web app (web/) into dist/web, which the server serves under /app. QUIRE_BUILD_OUT
// builds elsewhere (the build's test: dist/ stays what the other tests are serving meanwhile).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { buildWebApp } from './build-web.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = process.env.QUIRE_BUILD_OUT ? resolve(process.env.QUIRE_BUILD_OUT) : join(root, 'dist');
const require = createRequire(import.meta.url);

let tsc;
try {
  tsc = require.resolve('typescript/bin/tsc');
} catch {
  // An install without dev dependencies (npm ci --omit=dev) cannot build; it needs a dist/ built beforehand.
  if (existsSync(join(out, 'main.js'))) process.exit(0);
  console.error('quire build: TypeScript is not installed (dev dependencies omitted) and dist/ is missing; run `npm ci` with dev dependencies.');
  process.exit(1);
}

rmSync(out, { recursive: true, force: true });
// Emitted without checking the types (--noCheck; the same files, seven seconds instead of fifty): `npm run
// typecheck` checks them, in CI after the tests, and every `npm ci` of a clean clone paid for the check twice.
const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', out, '--noCheck'], { stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);

const SOURCE = /\.(ts|tsx|mts|cts)$/;
function copyAssets(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) copyAssets(path);
    else if (!SOURCE.test(name)) cpSync(path, join(out, relative(join(root, 'src'), path)));
  }
}
copyAssets(join(root, 'src'));

await buildWebApp({ outDir: join(out, 'web') });
