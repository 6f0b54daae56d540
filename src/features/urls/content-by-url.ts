import type { AppContext, Caller } from '../../platform/context.ts';
import { isNotFound, notFound } from '../../platform/errors.ts';
import { getChangeRequest } from '../change-requests/service.ts';
import { getCollection } from '../collections/service.ts';
import { readPage, type ContentSource } from '../content/service.ts';
import { markdownRenderer } from '../content/markdown.ts';
import { loadSpace, presentSpacesFor } from '../spaces/service.ts';
import { appAddressOf, type AppAddress } from './app-address.ts';
import type { ContentByUrl } from './schemas.ts';
import { parseUrl, resolvePublishedUrl } from './service.ts';

/**
 * getContentByUrl: the collection, or the space (with its change request and page) a URL names, as the caller
 * may read them: a URL of the members' app (`urls.app`), or of a published site (the space and page it
 * publishes there, read as the space's content). What the caller cannot read is a 404, as it would be by id.
 */
export async function resolveContentUrl(ctx: AppContext, caller: Caller, text: string): Promise<ContentByUrl> {
  const field = 'querystring/url';
  const url = parseUrl(text, field);
  const address = appAddressOf(url, ctx.config.publicUrl) ?? (await publishedAddress(ctx, caller, url));
  if (!address) throw notFound(`No content at ${url.href}: it is no URL of this server's app or of a site it publishes`);
  if (address.kind === 'collection') return { collection: await getCollection(ctx, caller, address.collectionId) };

  const { space, access } = await loadSpace(ctx, caller, address.spaceId);
  const presented = (await presentSpacesFor(ctx, access, [space])).get(space.id)!;
  const changeRequest = address.changeRequest ? await getChangeRequest(ctx, caller, space.id, address.changeRequest) : undefined;
  const source: ContentSource = changeRequest ? { spaceId: space.id, kind: 'change-request', changeRequestId: changeRequest.id } : { spaceId: space.id, kind: 'space' };
  const page = address.page ? await pageAt(ctx, caller, source, address.page) : undefined;
  return { space: presented, ...(changeRequest ? { changeRequest } : {}), ...(page ? { page } : {}) };
}

/** A page the URL names, when it is a document or a group (the answer's shapes); none at a path that names none. */
async function pageAt(ctx: AppContext, caller: Caller, source: ContentSource, at: { id: string } | { path: string }) {
  try {
    const page = await readPage(ctx, caller, source, 'id' in at ? { pageId: at.id } : { path: at.path }, {}, (snapshot) => markdownRenderer(ctx, snapshot));
    return page.type === 'document' || page.type === 'group' ? page : undefined;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/** The space and page path a published URL reaches for an anonymous visitor of that URL, if any. */
async function publishedAddress(ctx: AppContext, caller: Caller, url: URL): Promise<AppAddress | undefined> {
  let resolved;
  try {
    resolved = await resolvePublishedUrl(ctx, caller, { url: url.href, field: 'querystring/url' });
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
  if (!('space' in resolved)) return undefined;
  return { kind: 'space', spaceId: resolved.space, ...(resolved.pathname ? { page: { path: resolved.pathname } } : {}) };
}
