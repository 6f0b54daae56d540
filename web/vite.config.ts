import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/*
 * The members' web app, built by scripts/build.mjs into dist/web and served by the server under /app
 * (src/features/web-app/routes.ts): file names carry a hash of their content, so they are cached for good,
 * and index.html (never cached) names the current ones. Each route is its own chunk (routes.tsx).
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/app/',
  plugins: [react()],
  // The highlighting worker (features/code/highlight-worker.ts) imports each grammar when first needed: an ES
  // module worker keeps those chunks apart, where the default (one IIFE file) cannot split.
  worker: { format: 'es' },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    // Source maps are for people debugging; they are not loaded by browsers unless the tools are open.
    sourcemap: true,
    // The editor's mount point (features/editor/mount.tsx) is an entry of its own, so the browser tests and
    // the bench can import the real built editor from the manifest without the screen that hosts it.
    rollupOptions: {
      preserveEntrySignatures: 'exports-only',
      input: {
        index: fileURLToPath(new URL('index.html', import.meta.url)),
        editor: fileURLToPath(new URL('features/editor/mount.tsx', import.meta.url)),
      },
    },
  },
});
