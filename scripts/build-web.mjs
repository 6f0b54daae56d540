#!/usr/bin/env node
// Builds the members' web app (web/) with Vite into dist/web, which the server serves under /app
// (src/features/web-app/). Run by scripts/build.mjs, by the browser tests when web/ changed since the last
// build, and on its own: `node scripts/build-web.mjs`.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Builds into dist/web, or `outDir`. */
export async function buildWebApp({ logLevel = 'warn', outDir } = {}) {
  const { build } = await import('vite');
  await build({ configFile: join(root, 'web', 'vite.config.ts'), logLevel, ...(outDir ? { build: { outDir } } : {}) });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildWebApp({ logLevel: 'info' });
