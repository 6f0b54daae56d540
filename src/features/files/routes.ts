import { Type } from 'typebox';
import type { App } from '../../platform/app-type.ts';
import { notFound } from '../../platform/errors.ts';
import { servedAs } from './content-type.ts';
import { isStoredBlob, openFileDownload } from './service.ts';

const DownloadParams = Type.Object({ hash: Type.String(), name: Type.String() });

/**
 * File downloads, outside /v1 and without a token: the hash in the URL cannot be guessed without the bytes, so
 * the URL is the permission (as GitBook's `downloadURL`s are). The bytes at an address never change, hence
 * the year-long immutable caching.
 */
export async function fileDownloadRoutes(app: App) {
  app.get(
    '/files/:hash/:name',
    { config: { public: true }, schema: { hide: true, params: DownloadParams } },
    async (request, reply) => {
      const { hash, name } = request.params;
      const missing = () => notFound(`No file ${hash}: the download URL is wrong or the file was never stored`);
      const etag = `"${hash}"`;
      if (matchesEtag(request.headers['if-none-match'], etag)) {
        if (!(await isStoredBlob(app.ctx, hash))) throw missing();
        return reply.status(304).header('etag', etag).header('cache-control', CACHE).send();
      }
      const file = await openFileDownload(app.ctx, hash);
      if (!file) throw missing();
      const served = servedAs(file.contentType);
      reply
        .header('content-type', served.contentType)
        .header('content-length', file.size)
        .header('etag', etag)
        .header('cache-control', CACHE)
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', contentDisposition(served.disposition, name));
      // An uploaded page or SVG opened from this origin must not run script with its cookies and storage.
      if (served.sandbox) reply.header('content-security-policy', 'sandbox');
      return reply.send(file.body);
    },
  );
}

const CACHE = 'public, max-age=31536000, immutable';

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const value = candidate.trim().replace(/^W\//, '');
    return value === etag || value === '*';
  });
}

/** The disposition with the name from the URL: RFC 6266's ASCII fallback plus the exact UTF-8 name (RFC 8187). */
function contentDisposition(disposition: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const exact = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${exact}`;
}
