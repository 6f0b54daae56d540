import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import mime from 'mime';

/*
 * The members' web app as Vite built it (scripts/build.mjs -> dist/web): index.html and the files under
 * assets/, whose names carry a hash of their content. Files are read when first asked for and kept, with a
 * gzipped copy of the text ones (JavaScript is most of the first screen's weight); they never change while
 * the server runs.
 */

export interface AppFile {
  body: Buffer;
  gzipped?: Buffer;
  contentType: string;
}

export interface BuiltApp {
  index: AppFile;
  asset(name: string): AppFile | undefined;
}

/**
 * dist/web beside the running code: dist/features/web-app/ when built, src/features/web-app/ when run from
 * source (tests, QUIRE_FROM_SOURCE). Vite's manifest tells a build from the sources in web/.
 */
function builtDirectory(): string | null {
  for (const candidate of ['../../web/', '../../../dist/web/']) {
    const dir = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(`${dir}.vite/manifest.json`)) return dir;
  }
  return null;
}

const COMPRESSIBLE = /^(text\/|application\/(json|javascript))/;

function appFile(path: string): AppFile {
  const body = readFileSync(path);
  const contentType = mime.getType(path) ?? 'application/octet-stream';
  const textual = COMPRESSIBLE.test(contentType);
  return {
    body,
    contentType: textual ? `${contentType}; charset=utf-8` : contentType,
    ...(textual && body.length > 1024 ? { gzipped: gzipSync(body, { level: 9 }) } : {}),
  };
}

/** The built app, or null when there is none (a checkout where `npm run build` has not run). */
export function loadBuiltApp(dir = builtDirectory()): BuiltApp | null {
  if (!dir) return null;
  const names = new Set(readdirSync(`${dir}assets`));
  const cache = new Map<string, AppFile>();
  return {
    index: appFile(`${dir}index.html`),
    asset(name) {
      if (!names.has(name)) return undefined;
      let file = cache.get(name);
      if (!file) cache.set(name, (file = appFile(`${dir}assets/${name}`)));
      return file;
    },
  };
}
