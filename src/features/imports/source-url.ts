import { badRequest } from '../../platform/errors.ts';

/**
 * The URL an import reads (a website's start page, a document, an archive): absolute, and http or https, the
 * only schemes the import fetches. `field` is where the caller gave it (`body/url` for importContent,
 * `body/source/url` for startImportRun), so the 400 names the field as the caller wrote it.
 */
export function parseImportUrl(url: string, field: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest(`${field}: "${url}" is not an absolute URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw badRequest(`${field}: only http and https URLs can be imported, not ${parsed.protocol.replace(/:$/, '')}`);
  return parsed;
}
